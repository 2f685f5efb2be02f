"""Judged outside, the candidate must not see calls it has not been given (every native language).

The tests walk a chain where each call's argument is the previous call's answer (Collatz steps
6, 3, 10, 5, 16, 8): a program that can read call ``k + 1`` while answering call ``k`` answers
with its argument and passes, though its own rule (``x / 2``) is wrong for every odd ``x``. The
attacks look for later calls everywhere the candidate's process can reach: a calls file (read in
the call or at load), every file of the work directory and ``/tmp``, the channel (peeked, or read
after writing an early result line), and the process's own memory through ``/proc/self/mem``. All
must FAIL (or end in TIMEOUT, never PASS); the controls (the rule, with and without state kept
across calls) must PASS.
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case, cases_of, make_case
from execir.execute.attacks.adversarial_php_forms import mbxp_tests
from execir.types import TestSuite, Verdict

F, T, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.PASS
LOOKED = {F, T}
CHAIN = ((6, 3), (3, 10), (10, 5), (5, 16), (16, 8), (8, 4))

# ---- C++ ---------------------------------------------------------------------------------------
CPP_TESTS = TestSuite(
    "native", "int step(int x);\n#undef NDEBUG\n#include<assert.h>\nint main(){\n" + "".join(f"    assert (step({a}) == {b});\n" for a, b in CHAIN) + "}\n"
)
CPP_REF = "int step(int x) {\n    return x % 2 == 0 ? x / 2 : 3 * x + 1;\n}\n"
_CPP_FIND = r"""#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
static int last_int(const std::string &s) {
    int v = -1;
    for (size_t i = 0; i < s.size();) {
        if (isdigit((unsigned char)s[i])) { v = 0; while (i < s.size() && isdigit((unsigned char)s[i])) v = v * 10 + (s[i++] - '0'); }
        else i++;
    }
    return v;
}
static std::string slurp(const std::string &path) { std::ifstream f(path.c_str(), std::ios::binary); std::stringstream b; b << f.rdbuf(); return b.str(); }
static int after_line(const std::string &text, int x) {
    std::string needle = "[" + std::to_string(x) + "]\n[";
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
        size_t start = at + needle.size() - 1, end = text.find('\n', start);
        std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (line.size() > 2 && line[line.size() - 1] == ']' && isdigit((unsigned char)line[1])) return last_int(line);
    }
    return -1;
}
static int scan_dir(const char *dir, int x) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int found = -1;
    while (dirent *e = readdir(d)) {
        std::string name = std::string(dir) + "/" + e->d_name;
        if (found < 0 && e->d_name[0] != '.') found = after_line(slurp(name), x);
    }
    closedir(d);
    return found;
}
static int scan_memory(int x) {
    std::ifstream maps("/proc/self/maps");
    int mem = open("/proc/self/mem", O_RDONLY);
    std::string line;
    while (mem >= 0 && std::getline(maps, line)) {
        unsigned long lo = 0, hi = 0;
        char perms[8] = {0};
        if (std::sscanf(line.c_str(), "%lx-%lx %7s", &lo, &hi, perms) != 3 || perms[0] != 'r' || hi - lo > (64ul << 20)) continue;
        std::string block(hi - lo, '\0');
        ssize_t got = pread(mem, &block[0], block.size(), (off_t)lo);
        if (got <= 0) continue;
        block.resize((size_t)got);
        int found = after_line(block, x);
        if (found >= 0) { close(mem); return found; }
    }
    if (mem >= 0) close(mem);
    return -1;
}
static int or_half(int found, int x) { return found >= 0 ? found : x / 2; }
"""
CPP_ATTACKS = {
    "file_in_call": _CPP_FIND + 'int step(int x) {\n    return or_half(after_line(slurp("execir_calls.jsonl"), x), x);\n}\n',
    "file_at_load": _CPP_FIND + 'static std::string early = slurp("execir_calls.jsonl");\nint step(int x) {\n    return or_half(after_line(early, x), x);\n}\n',
    "scan_files": _CPP_FIND + 'int step(int x) {\n    int f = scan_dir(".", x);\n    if (f < 0) f = scan_dir("/tmp", x);\n    return or_half(f, x);\n}\n',
    "peek_channel": _CPP_FIND
    + "int step(int x) {\n    char buf[1 << 16];\n    ssize_t got = recv(3, buf, sizeof buf, MSG_PEEK | MSG_DONTWAIT);\n"
    + '    std::string seen = "[" + std::to_string(x) + "]\\n" + (got > 0 ? std::string(buf, (size_t)got) : std::string());\n'
    + "    return or_half(after_line(seen, x), x);\n}\n",
    "early_line": _CPP_FIND
    + 'int step(int x) {\n    if (write(3, "{\\"ok\\":0}\\n", 9) != 9) return x / 2;\n    pollfd p = {3, POLLIN, 0};\n'
    + "    char buf[1 << 16];\n    if (poll(&p, 1, 300) > 0) {\n        ssize_t got = read(3, buf, sizeof buf);\n"
    + "        if (got > 0) return last_int(std::string(buf, (size_t)got));\n    }\n    return x / 2;\n}\n",
    "proc_mem": _CPP_FIND + "int step(int x) {\n    return or_half(scan_memory(x), x);\n}\n",
}
CPP_CONTROLS = {
    "rule": CPP_REF,
    "memo": "#include <map>\nstatic std::map<int, int> memo;\nint step(int x) {\n"
    "    if (!memo.count(x)) memo[x] = x % 2 == 0 ? x / 2 : 3 * x + 1;\n    return memo[x];\n}\n",
}

# ---- Rust --------------------------------------------------------------------------------------
RUST_TESTS = TestSuite(
    "native",
    "\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn test_step() {\n"
    + "".join(f"        assert_eq!(step({a}), {b});\n" for a, b in CHAIN)
    + "    }\n}\n",
)
RUST_REF = "fn step(x: i32) -> i32 {\n    if x % 2 == 0 { x / 2 } else { 3 * x + 1 }\n}\n"
_RUST_FIND = r"""use std::io::{Read, Seek, SeekFrom};

fn last_int(s: &str) -> Option<i32> {
    let mut found = None;
    let mut cur: Option<i32> = None;
    for c in s.chars() {
        match c.to_digit(10) {
            Some(d) => cur = Some(cur.unwrap_or(0).saturating_mul(10).saturating_add(d as i32)),
            None => if let Some(n) = cur.take() { found = Some(n); },
        }
    }
    cur.or(found)
}

fn after_line(text: &[u8], x: i32) -> Option<i32> {
    let needle = format!("[{}]\n[", x).into_bytes();
    let mut i = 0;
    while i + needle.len() <= text.len() {
        if text[i] == b'[' && text[i..i + needle.len()] == needle[..] {
            let start = i + needle.len() - 1;
            let end = text[start..].iter().position(|&b| b == b'\n').map(|p| start + p).unwrap_or(text.len());
            if let Ok(line) = std::str::from_utf8(&text[start..end]) {
                if line.len() > 2 && line.ends_with(']') && line.as_bytes()[1].is_ascii_digit() {
                    return last_int(line);
                }
            }
        }
        i += 1;
    }
    None
}

fn scan_dir(dir: &str, x: i32) -> Option<i32> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        if let Ok(data) = std::fs::read(entry.path()) {
            if let Some(n) = after_line(&data, x) {
                return Some(n);
            }
        }
    }
    None
}

fn scan_memory(x: i32, writable_only: bool) -> Option<i32> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    let mut mem = std::fs::File::open("/proc/self/mem").ok()?;
    for line in maps.lines() {
        let mut parts = line.split_whitespace();
        let range = parts.next()?;
        let perms = parts.next()?;
        if !perms.starts_with('r') || (writable_only && !perms.contains('w')) {
            continue;
        }
        let (lo, hi) = range.split_once('-')?;
        let (lo, hi) = (u64::from_str_radix(lo, 16).ok()?, u64::from_str_radix(hi, 16).ok()?);
        if hi - lo > 64 << 20 || mem.seek(SeekFrom::Start(lo)).is_err() {
            continue;
        }
        let mut block = vec![0u8; (hi - lo) as usize];
        if let Ok(got) = mem.read(&mut block) {
            if let Some(n) = after_line(&block[..got], x) {
                return Some(n);
            }
        }
    }
    None
}
"""
RUST_ATTACKS = {
    "file_in_call": _RUST_FIND
    + 'fn step(x: i32) -> i32 {\n    let text = std::fs::read("execir_calls.jsonl").unwrap_or_default();\n    after_line(&text, x).unwrap_or(x / 2)\n}\n',
    "scan_files": _RUST_FIND + 'fn step(x: i32) -> i32 {\n    scan_dir(".", x).or_else(|| scan_dir("/tmp", x)).unwrap_or(x / 2)\n}\n',
    "proc_mem": _RUST_FIND + "fn step(x: i32) -> i32 {\n    scan_memory(x, true).unwrap_or(x / 2)\n}\n",
    "proc_mem_all": _RUST_FIND + "fn step(x: i32) -> i32 {\n    scan_memory(x, false).unwrap_or(x / 2)\n}\n",
    "proc_fd": _RUST_FIND
    + "fn step(x: i32) -> i32 {\n    let mut found = None;\n    for fd in 0..16 {\n"
    + '        if let Ok(data) = std::fs::read(format!("/proc/self/fd/{}", fd)) {\n            found = found.or(after_line(&data, x));\n        }\n    }\n'
    + "    found.unwrap_or(x / 2)\n}\n",
}
RUST_CONTROLS = {
    "rule": RUST_REF,
    "memo": "use std::collections::HashMap;\nuse std::sync::Mutex;\n\nstatic MEMO: Mutex<Option<HashMap<i32, i32>>> = Mutex::new(None);\n\n"
    "fn step(x: i32) -> i32 {\n    let mut memo = MEMO.lock().unwrap();\n"
    "    *memo.get_or_insert_with(HashMap::new).entry(x).or_insert(if x % 2 == 0 { x / 2 } else { 3 * x + 1 })\n}\n",
}

# ---- Go ----------------------------------------------------------------------------------------
GO_TESTS = TestSuite(
    "native",
    'package main\n\nimport (\n    "testing"\n    "github.com/stretchr/testify/assert"\n)\n\nfunc TestStep(t *testing.T) {\n'
    + "".join(f"    assert.Equal(t, {b}, Step({a}))\n" for a, b in CHAIN)
    + "}\n",
)
GO_REF = "package main\n\nfunc Step(x int) int {\n    if x%2 == 0 {\n        return x / 2\n    }\n    return 3*x + 1\n}\n"
_GO_FIND = r"""package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func lastInt(s string) int {
	v := -1
	for i := 0; i < len(s); {
		if s[i] >= '0' && s[i] <= '9' {
			v = 0
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				v = v*10 + int(s[i]-'0')
				i++
			}
		} else {
			i++
		}
	}
	return v
}

func afterLine(text []byte, x int) int {
	needle := []byte(fmt.Sprintf("[%d]\n[", x))
	for at := 0; ; {
		i := bytes.Index(text[at:], needle)
		if i < 0 {
			return -1
		}
		start := at + i + len(needle) - 1
		end := bytes.IndexByte(text[start:], '\n')
		line := text[start:]
		if end >= 0 {
			line = text[start : start+end]
		}
		if len(line) > 2 && line[len(line)-1] == ']' && line[1] >= '0' && line[1] <= '9' {
			return lastInt(string(line))
		}
		at += i + 1
	}
}

func scanDir(dir string, x int) int {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if data, err := os.ReadFile(dir + "/" + e.Name()); err == nil {
			if n := afterLine(data, x); n >= 0 {
				return n
			}
		}
	}
	return -1
}

func scanMemory(x int) int {
	maps, err := os.Open("/proc/self/maps")
	if err != nil {
		return -1
	}
	defer maps.Close()
	mem, err := os.Open("/proc/self/mem")
	if err != nil {
		return -1
	}
	defer mem.Close()
	lines := bufio.NewScanner(maps)
	for lines.Scan() {
		fields := strings.Fields(lines.Text())
		if len(fields) < 2 || fields[1][0] != 'r' {
			continue
		}
		bounds := strings.SplitN(fields[0], "-", 2)
		lo, _ := strconv.ParseUint(bounds[0], 16, 64)
		hi, _ := strconv.ParseUint(bounds[1], 16, 64)
		if hi-lo > 64<<20 {
			continue
		}
		block := make([]byte, hi-lo)
		got, _ := mem.ReadAt(block, int64(lo))
		if n := afterLine(block[:got], x); n >= 0 {
			return n
		}
	}
	return -1
}

func orHalf(found, x int) int {
	if found >= 0 {
		return found
	}
	return x / 2
}

var _ = time.Millisecond
var _ = syscall.Getpid
"""
GO_ATTACKS = {
    "file_in_call": _GO_FIND + '\nfunc Step(x int) int {\n\tdata, _ := os.ReadFile("execir_calls.jsonl")\n\treturn orHalf(afterLine(data, x), x)\n}\n',
    "file_at_init": _GO_FIND + '\nvar early, _ = os.ReadFile("execir_calls.jsonl")\n\nfunc Step(x int) int {\n\treturn orHalf(afterLine(early, x), x)\n}\n',
    "scan_files": _GO_FIND + '\nfunc Step(x int) int {\n\tf := scanDir(".", x)\n\tif f < 0 {\n\t\tf = scanDir("/tmp", x)\n\t}\n\treturn orHalf(f, x)\n}\n',
    "peek_channel": _GO_FIND
    + "\nfunc Step(x int) int {\n\tbuf := make([]byte, 1<<16)\n\tgot, _, err := syscall.Recvfrom(3, buf, syscall.MSG_PEEK|syscall.MSG_DONTWAIT)\n"
    + '\tseen := []byte(fmt.Sprintf("[%d]\\n", x))\n\tif err == nil && got > 0 {\n\t\tseen = append(seen, buf[:got]...)\n\t}\n'
    + "\treturn orHalf(afterLine(seen, x), x)\n}\n",
    "early_line": _GO_FIND
    + '\nfunc Step(x int) int {\n\tsyscall.Write(3, []byte("{\\"ok\\":0}\\n"))\n\ttime.Sleep(300 * time.Millisecond)\n\tbuf := make([]byte, 1<<16)\n'
    + "\tgot, _, err := syscall.Recvfrom(3, buf, syscall.MSG_DONTWAIT)\n"
    + "\tif err == nil && got > 0 {\n\t\treturn lastInt(string(buf[:got]))\n\t}\n\treturn x / 2\n}\n",
    "proc_mem": _GO_FIND + "\nfunc Step(x int) int {\n\treturn orHalf(scanMemory(x), x)\n}\n",
}
GO_CONTROLS = {
    "rule": GO_REF,
    "memo": "package main\n\nvar memo = map[int]int{}\n\nfunc Step(x int) int {\n    if v, ok := memo[x]; ok {\n        return v\n    }\n"
    "    v := 3*x + 1\n    if x%2 == 0 {\n        v = x / 2\n    }\n    memo[x] = v\n    return v\n}\n",
}

# ---- Java --------------------------------------------------------------------------------------
JAVA_TESTS = TestSuite(
    "native",
    "public class Main {\n    public static void main(String[] args) {\n        Solution s = new Solution();\n"
    + "".join(f"        if (s.step({a}) != {b}) throw new AssertionError();\n" for a, b in CHAIN)
    + "    }\n}\n",
)
JAVA_REF = "import java.util.*;\n\nclass Solution {\n    public int step(int x) { return x % 2 == 0 ? x / 2 : 3 * x + 1; }\n}\n"
_JAVA_FIND = r"""import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

class Find {
    static int lastInt(String s) {
        int v = -1;
        for (int i = 0; i < s.length();) {
            if (Character.isDigit(s.charAt(i))) { v = 0; while (i < s.length() && Character.isDigit(s.charAt(i))) v = v * 10 + (s.charAt(i++) - '0'); }
            else i++;
        }
        return v;
    }
    static int afterLine(String text, int x) {
        String needle = "[" + x + "]\n[";
        for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
            int start = at + needle.length() - 1, end = text.indexOf('\n', start);
            String line = end < 0 ? text.substring(start) : text.substring(start, end);
            if (line.length() > 2 && line.endsWith("]") && Character.isDigit(line.charAt(1))) return lastInt(line);
        }
        return -1;
    }
    static String slurp(String path) {
        try { return new String(Files.readAllBytes(Paths.get(path)), StandardCharsets.ISO_8859_1); } catch (Throwable e) { return ""; }
    }
    static int scanDir(String dir, int x) {
        File[] files = new File(dir).listFiles();
        if (files == null) return -1;
        for (File f : files) { int n = afterLine(slurp(f.getPath()), x); if (n >= 0) return n; }
        return -1;
    }
    static int scanMemory(int x) {
        try (BufferedReader maps = new BufferedReader(new FileReader("/proc/self/maps")); RandomAccessFile mem = new RandomAccessFile("/proc/self/mem", "r")) {
            for (String line; (line = maps.readLine()) != null;) {
                String[] f = line.split("\\s+");
                if (f.length < 2 || f[1].charAt(0) != 'r' || f[1].charAt(1) != 'w') continue;
                String[] b = f[0].split("-");
                long lo = Long.parseUnsignedLong(b[0], 16), hi = Long.parseUnsignedLong(b[1], 16);
                if (hi - lo > (16L << 20)) continue;
                byte[] block = new byte[(int) (hi - lo)];
                int got;
                try { mem.seek(lo); got = mem.read(block); } catch (IOException e) { continue; }
                if (got <= 0) continue;
                int n = afterLine(new String(block, 0, got, StandardCharsets.ISO_8859_1), x);
                if (n >= 0) return n;
            }
        } catch (Throwable e) { return -1; }
        return -1;
    }
    static int orHalf(int found, int x) { return found >= 0 ? found : x / 2; }
}
"""
JAVA_ATTACKS = {
    "file_in_call": _JAVA_FIND
    + 'class Solution {\n    public int step(int x) { return Find.orHalf(Find.afterLine(Find.slurp("execir_calls.jsonl"), x), x); }\n}\n',
    "file_at_load": _JAVA_FIND
    + 'class Solution {\n    static final String EARLY = Find.slurp("execir_calls.jsonl");\n'
    + "    public int step(int x) { return Find.orHalf(Find.afterLine(EARLY, x), x); }\n}\n",
    "scan_files": _JAVA_FIND
    + 'class Solution {\n    public int step(int x) { int f = Find.scanDir(".", x); if (f < 0) f = Find.scanDir("/tmp", x); return Find.orHalf(f, x); }\n}\n',
    "proc_mem": _JAVA_FIND + "class Solution {\n    public int step(int x) { return Find.orHalf(Find.scanMemory(x), x); }\n}\n",
    "watcher_thread": _JAVA_FIND
    + 'class Solution {\n    static volatile String seen = "";\n    static {\n        Thread t = new Thread(() -> { for (int i = 0; i < 200; i++) {\n'
    + '            String s = Find.slurp("execir_calls.jsonl"); if (!s.isEmpty()) seen = s;\n'
    + "            try { Thread.sleep(5); } catch (InterruptedException e) { return; } } });\n"
    + "        t.setDaemon(true);\n        t.start();\n    }\n"
    + "    public int step(int x) { try { Thread.sleep(30); } catch (InterruptedException e) { }\n"
    + "        return Find.orHalf(Find.afterLine(seen, x), x); }\n}\n",
}
JAVA_CONTROLS = {
    "rule": JAVA_REF,
    "fields": "import java.util.*;\n\nclass Solution {\n    private final Map<Integer, Integer> memo = new HashMap<>();\n"
    "    public int step(int x) { return memo.computeIfAbsent(x, v -> v % 2 == 0 ? v / 2 : 3 * v + 1); }\n}\n",
}

# ---- JavaScript and TypeScript -----------------------------------------------------------------
JS_TESTS = TestSuite("native", "const assert = require('assert')\n" + "".join(f"assert.strictEqual(step({a}), {b})\n" for a, b in CHAIN))
JS_REF = "const step = (x) => x % 2 === 0 ? x / 2 : 3 * x + 1\n"
TS_TESTS = TestSuite(
    "native",
    "import * as assert from 'assert'\n\n"
    + "".join(
        f'let actual_{i} = step({a});\nlet expected_{i} = {b};\nassert.deepEqual(actual_{i}, expected_{i}, "Exception --- test case {i} failed to pass");\n\n'
        for i, (a, b) in enumerate(CHAIN)
    ),
)
TS_REF = "function step(x: number): number {\n    return x % 2 === 0 ? x / 2 : 3 * x + 1;\n}\n"
_JS_FIND = r"""const fs = require('fs')
const lastInt = (s) => { const m = s.match(/\d+/g); return m ? Number(m[m.length - 1]) : -1 }
const afterLine = (text, x) => {
  const needle = '[' + x + ']\n['
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const start = at + needle.length - 1, end = text.indexOf('\n', start)
    const line = end < 0 ? text.slice(start) : text.slice(start, end)
    if (line.length > 2 && line.endsWith(']') && /\d/.test(line[1])) return lastInt(line)
  }
  return -1
}
const slurp = (p) => { try { return fs.readFileSync(p, 'latin1') } catch (e) { return '' } }
const scanDir = (dir, x) => {
  let names = []
  try { names = fs.readdirSync(dir) } catch (e) { return -1 }
  for (const n of names) { const f = afterLine(slurp(dir + '/' + n), x); if (f >= 0) return f }
  return -1
}
const scanMemory = (x) => {
  let fd
  try { fd = fs.openSync('/proc/self/mem', 'r') } catch (e) { return -1 }
  for (const line of slurp('/proc/self/maps').split('\n')) {
    const f = line.split(/\s+/)
    if (f.length < 2 || f[1][0] !== 'r' || f[1][1] !== 'w') continue
    const [lo, hi] = f[0].split('-').map((h) => parseInt(h, 16))
    if (hi - lo > (16 << 20)) continue
    const block = Buffer.alloc(hi - lo)
    let got = 0
    try { got = fs.readSync(fd, block, 0, block.length, lo) } catch (e) { continue }
    const n = afterLine(block.toString('latin1', 0, got), x)
    if (n >= 0) return n
  }
  return -1
}
const orHalf = (found, x) => found >= 0 ? found : Math.floor(x / 2)
"""
JS_ATTACKS = {
    "file_in_call": _JS_FIND + "function step(x) {\n  return orHalf(afterLine(slurp('execir_calls.jsonl'), x), x)\n}\n",
    "file_at_load": _JS_FIND + "const early = slurp('execir_calls.jsonl')\nfunction step(x) {\n  return orHalf(afterLine(early, x), x)\n}\n",
    "scan_files": _JS_FIND + "function step(x) {\n  let f = scanDir('.', x)\n  if (f < 0) f = scanDir('/tmp', x)\n  return orHalf(f, x)\n}\n",
    "early_line": _JS_FIND
    + "function step(x) {\n  fs.writeSync(3, '{\"ok\":0}\\n')\n  const buf = Buffer.alloc(1 << 16)\n  let got = 0\n"
    + "  try { got = fs.readSync(3, buf, 0, buf.length, null) } catch (e) { return Math.floor(x / 2) }\n  return lastInt(buf.toString('latin1', 0, got))\n}\n",
    "proc_mem": _JS_FIND + "function step(x) {\n  return orHalf(scanMemory(x), x)\n}\n",
}
JS_CONTROLS = {
    "rule": JS_REF,
    "memo": "const memo = new Map()\nfunction step(x) {\n  if (!memo.has(x)) memo.set(x, x % 2 === 0 ? x / 2 : 3 * x + 1)\n  return memo.get(x)\n}\n",
}
TS_CONTROLS = {
    "rule": TS_REF,
    "memo": "const memo: Map<number, number> = new Map();\nfunction step(x: number): number {\n"
    "    if (!memo.has(x)) memo.set(x, x % 2 === 0 ? x / 2 : 3 * x + 1);\n    return memo.get(x)!;\n}\n",
}

# ---- Ruby --------------------------------------------------------------------------------------
RUBY_TESTS = TestSuite(
    "native", "".join(f'x{i} = step({a})\nif x{i} != {b}\n    raise StandardError, "Error at test case {i + 1}"\nend\n\n' for i, (a, b) in enumerate(CHAIN))
)
RUBY_REF = "def step(x)\n  x.even? ? x / 2 : 3 * x + 1\nend\n"
_RUBY_FIND = r"""require 'socket'

def last_int(s)
  m = s.scan(/\d+/)
  m.empty? ? -1 : m[-1].to_i
end

def after_line(text, x)
  needle = "[#{x}]\n["
  at = text.index(needle)
  while at
    start = at + needle.size - 1
    stop = text.index("\n", start)
    line = stop ? text[start...stop] : text[start..]
    return last_int(line) if line.size > 2 && line.end_with?(']') && line[1] =~ /\d/
    at = text.index(needle, at + 1)
  end
  -1
end

def slurp(path)
  File.binread(path)
rescue Exception
  ''
end

def scan_dir(dir, x)
  Dir.children(dir).each do |name|
    found = after_line(slurp(File.join(dir, name)), x)
    return found if found >= 0
  end
  -1
rescue Exception
  -1
end

def scan_memory(x)
  File.open('/proc/self/mem', 'rb') do |mem|
    File.readlines('/proc/self/maps').each do |line|
      range, perms = line.split
      next unless perms.start_with?('rw')
      lo, hi = range.split('-').map { |h| h.to_i(16) }
      next if hi - lo > (16 << 20)
      begin
        mem.seek(lo)
        block = mem.read(hi - lo) || ''
      rescue Exception
        next
      end
      found = after_line(block, x)
      return found if found >= 0
    end
  end
  -1
rescue Exception
  -1
end

def or_half(found, x)
  found >= 0 ? found : x / 2
end
"""
RUBY_ATTACKS = {
    "file_in_call": _RUBY_FIND + "def step(x)\n  or_half(after_line(slurp('execir_calls.jsonl'), x), x)\nend\n",
    "file_at_load": _RUBY_FIND + "EARLY = slurp('execir_calls.jsonl')\ndef step(x)\n  or_half(after_line(EARLY, x), x)\nend\n",
    "scan_files": _RUBY_FIND + "def step(x)\n  f = scan_dir('.', x)\n  f = scan_dir('/tmp', x) if f < 0\n  or_half(f, x)\nend\n",
    "peek_channel": _RUBY_FIND
    + "def step(x)\n  seen = BasicSocket.for_fd(3).recv_nonblock(65536, Socket::MSG_PEEK, exception: false)\n"
    + "  seen = '' unless seen.is_a?(String)\n  or_half(after_line(\"[#{x}]\\n\" + seen, x), x)\nrescue Exception\n  x / 2\nend\n",
    "early_line": _RUBY_FIND
    + 'def step(x)\n  io = IO.for_fd(3, autoclose: false)\n  io.syswrite("{\\"ok\\":0}\\n")\n'
    + "  return x / 2 unless IO.select([io], nil, nil, 0.3)\n  last_int(io.sysread(65536))\nrescue Exception\n  x / 2\nend\n",
    "proc_mem": _RUBY_FIND + "def step(x)\n  or_half(scan_memory(x), x)\nend\n",
}
RUBY_CONTROLS = {
    "rule": RUBY_REF,
    "memo": "MEMO = {}\ndef step(x)\n  MEMO[x] ||= x.even? ? x / 2 : 3 * x + 1\nend\n",
}

# ---- PHP ---------------------------------------------------------------------------------------
PHP_TESTS = TestSuite("native", mbxp_tests("step", [(str(a), str(b)) for a, b in CHAIN]))
PHP_REF = "<?php\nfunction step($x) {\n    return $x % 2 == 0 ? intdiv($x, 2) : 3 * $x + 1;\n}\n"
_PHP_FIND = r"""<?php
function last_int($s) {
    return preg_match_all('/\d+/', $s, $m) ? (int) end($m[0]) : -1;
}
function after_line($text, $x) {
    $needle = "[$x]\n[";
    for ($at = strpos($text, $needle); $at !== false; $at = strpos($text, $needle, $at + 1)) {
        $start = $at + strlen($needle) - 1;
        $end = strpos($text, "\n", $start);
        $line = $end === false ? substr($text, $start) : substr($text, $start, $end - $start);
        if (strlen($line) > 2 && substr($line, -1) === ']' && ctype_digit($line[1])) {
            return last_int($line);
        }
    }
    return -1;
}
function slurp($path) {
    $text = @file_get_contents($path);
    return $text === false ? '' : $text;
}
function scan_dir($dir, $x) {
    foreach (@scandir($dir) ?: [] as $name) {
        if ($name[0] !== '.' && ($found = after_line(slurp("$dir/$name"), $x)) >= 0) {
            return $found;
        }
    }
    return -1;
}
function or_half($found, $x) {
    return $found >= 0 ? $found : intdiv($x, 2);
}
"""
PHP_ATTACKS = {
    "file_in_call": _PHP_FIND + "function step($x) {\n    return or_half(after_line(slurp('execir_calls.jsonl'), $x), $x);\n}\n",
    "file_at_load": _PHP_FIND
    + "$GLOBALS['early'] = slurp('execir_calls.jsonl');\nfunction step($x) {\n    return or_half(after_line($GLOBALS['early'], $x), $x);\n}\n",
    "scan_files": _PHP_FIND
    + "function step($x) {\n    $f = scan_dir('.', $x);\n    if ($f < 0) {\n        $f = scan_dir('/tmp', $x);\n    }\n    return or_half($f, $x);\n}\n",
    "early_line": _PHP_FIND
    + "function step($x) {\n    $io = @fopen('php://fd/3', 'r+');\n    if ($io === false) {\n        return intdiv($x, 2);\n    }\n"
    + '    fwrite($io, "{\\"ok\\":0}\\n");\n    fflush($io);\n    $r = [$io];\n    $w = $e = null;\n'
    + "    if (@stream_select($r, $w, $e, 0, 300000) > 0) {\n        return last_int((string) fgets($io));\n    }\n    return intdiv($x, 2);\n}\n",
    "proc_self": _PHP_FIND
    + "function step($x) {\n    $f = -1;\n    foreach (['/proc/self/fd/0', '/proc/self/cmdline', '/proc/self/environ', '/proc/self/mem'] as $p) {\n"
    + "        if ($f < 0) {\n            $f = after_line(slurp($p), $x);\n        }\n    }\n    return or_half($f, $x);\n}\n",
}
PHP_CONTROLS = {
    "rule": PHP_REF,
    "memo": "<?php\nfunction step($x) {\n    static $memo = [];\n    return $memo[$x] ??= ($x % 2 == 0 ? intdiv($x, 2) : 3 * $x + 1);\n}\n",
}

_LANGUAGES = (
    ("cpp", "cpp", "step", CPP_TESTS, CPP_REF, CPP_ATTACKS, CPP_CONTROLS),
    ("rust", "rust", "step", RUST_TESTS, RUST_REF, RUST_ATTACKS, RUST_CONTROLS),
    ("go", "go", "Step", GO_TESTS, GO_REF, GO_ATTACKS, GO_CONTROLS),
    ("java", "java", "step", JAVA_TESTS, JAVA_REF, JAVA_ATTACKS, JAVA_CONTROLS),
    ("js", "js", "step", JS_TESTS, JS_REF, JS_ATTACKS, JS_CONTROLS),
    ("typescript", "ts", "step", TS_TESTS, TS_REF, JS_ATTACKS, TS_CONTROLS),
    ("ruby", "ruby", "step", RUBY_TESTS, RUBY_REF, RUBY_ATTACKS, RUBY_CONTROLS),
    ("php", "php", "step", PHP_TESTS, PHP_REF, PHP_ATTACKS, PHP_CONTROLS),
)


def _cases() -> tuple[Case, ...]:
    cases: list[Case] = []
    for language, prefix, entry, tests, reference, attacks, controls in _LANGUAGES:
        for name, program in attacks.items():
            cases.append(make_case(f"{prefix}_ahead_{name}", "wire-ahead", program, LOOKED, tests, entry_point=entry, language=language, reference=reference))
        for name, program in controls.items():
            cases.append(make_case(f"{prefix}_ahead_control_{name}", "control", program, P, tests, entry_point=entry, language=language, reference=reference))
    return tuple(cases)


CASES: tuple[Case, ...] = _cases()
"""Every look-ahead attack and control, in every native language, each with the task's reference."""


def of_language(language: str) -> tuple[Case, ...]:
    """The cases of one language (each language's selftest module takes its own)."""
    return cases_of(CASES, language)
