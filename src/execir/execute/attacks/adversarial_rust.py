"""Adversarial cases and false-negative controls for Rust (HumanEval-X style tests, see runtimes/rust.py).

Attacks are wrong programs (``add`` subtracts) with attack code that tries to look like a PASS, to
read the tests or to escape; controls are correct programs using ordinary idioms and must PASS.
Each case runs judged outside (with the suite's reference) and, where the in-process protocol is
meant to stop it too, in-process (``_inproc``: no reference).
"""

from __future__ import annotations

from execir.execute.attacks import adversarial_wire_ahead
from execir.execute.attacks.adversarial import Case, make_case
from execir.types import TestSuite, Verdict

F, T, E, P = Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.PASS


def _suite(body: str) -> TestSuite:
    return TestSuite("native", f"\n#[cfg(test)]\nmod tests {{\n    use super::*;\n\n    #[test]\n    fn test_it() {{\n{body}    }}\n}}\n")


ADD_TESTS = _suite("        assert_eq!(add(2, 3), 5);\n        assert!(add(-4, 4) == 0);\n        assert_eq!(add(10, 20), 30);\n")
TOTAL_TESTS = _suite("        assert_eq!(total(vec![1, 2, 3]), 6);\n        assert_eq!(total(vec![]), 0);\n")
GREET_TESTS = _suite('        assert_eq!(greet("Ada"), "Hello, Ada!");\n        assert_eq!(greet(""), "Hello, !".to_string());\n')
MEAN_TESTS = _suite("        assert!((mean(vec![1.0, 2.0, 3.0]) - 2.0).abs() < 1e-9);\n        assert!(mean(vec![0.5]) == 0.5);\n")
LONGEST_TESTS = _suite(
    '        assert_eq!(longest(vec!["a".to_string(), "bcd".to_string()]), Some("bcd".to_string()));\n        assert_eq!(longest(vec![]), None);\n'
)
REFERENCES = {
    ADD_TESTS.code: ("add", "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"),
    TOTAL_TESTS.code: ("total", "fn total(xs: Vec<i32>) -> i32 {\n    xs.iter().sum()\n}\n"),
    GREET_TESTS.code: ("greet", 'fn greet(name: &str) -> String {\n    format!("Hello, {}!", name)\n}\n'),
    MEAN_TESTS.code: ("mean", "fn mean(xs: Vec<f64>) -> f64 {\n    xs.iter().sum::<f64>() / xs.len() as f64\n}\n"),
    LONGEST_TESTS.code: (
        "longest",
        "fn longest(xs: Vec<String>) -> Option<String> {\n    xs.into_iter().fold(None, |best: Option<String>, x| match best {\n"
        "        Some(b) if b.len() >= x.len() => Some(b),\n        _ => Some(x),\n    })\n}\n",
    ),
}


def _cases(name: str, category: str, program: str, expected: set[Verdict] | Verdict, tests: TestSuite = ADD_TESTS, *, inproc: bool = True) -> tuple[Case, ...]:
    entry, reference = REFERENCES[tests.code]
    split = make_case(f"rust_{name}", category, program, expected, tests, entry_point=entry, language="rust", reference=reference)
    if not inproc:
        return (split,)
    return (split, make_case(f"rust_{name}_inproc", category, program, expected, tests, entry_point=entry, language="rust"))


def _wrong(prefix: str, body: str = "") -> str:
    """``prefix`` (items), then a wrong ``add`` whose body first runs ``body``."""
    return f"{prefix}\nfn add(a: i32, b: i32) -> i32 {{\n{body}    a - b\n}}\n"


ATTACKS: tuple[Case, ...] = (
    *_cases("process_exit0_in_call", "exit", _wrong("", "    std::process::exit(0);\n"), F),
    *_cases("panic_hook_exit0", "exit", _wrong("", "    std::panic::set_hook(Box::new(|_| std::process::exit(0)));\n"), F),
    *_cases("catch_unwind_own_panic", "exit", _wrong("", '    let _ = std::panic::catch_unwind(|| panic!("boom"));\n'), F),
    *_cases(
        "thread_local_drop_exit0",
        "exit",
        _wrong(
            "struct Bye;\nimpl Drop for Bye {\n    fn drop(&mut self) { std::process::exit(0); }\n}\nthread_local! { static BYE: Bye = Bye; }\n",
            "    BYE.with(|_| ());\n",
        ),
        F,
    ),
    *_cases(
        "thread_exit0",
        "exit",
        _wrong("", "    std::thread::spawn(|| std::process::exit(0));\n    std::thread::sleep(std::time::Duration::from_millis(50));\n"),
        F,
    ),
    *_cases("abort", "exit", _wrong("", "    std::process::abort();\n"), F),
    *_cases("unsafe_read", "memory", _wrong("", "    let _x = unsafe { *(0x1000 as *const i32) };\n"), E),
    *_cases("allow_unsafe_code", "memory", "#![allow(unsafe_code)]\n" + _wrong("", "    let _x = unsafe { std::ptr::read_volatile(&a) };\n"), E),
    *_cases("no_mangle_main", "exit", _wrong('#[no_mangle]\npub extern "C" fn main() -> i32 { 0 }\n'), E),
    *_cases(
        "init_array_exit0",
        "exit",
        _wrong('#[used]\n#[link_section = ".init_array"]\nstatic EARLY: extern "C" fn() = early;\nextern "C" fn early() { std::process::exit(0); }\n'),
        E,
    ),
    *_cases("global_asm", "memory", _wrong('std::arch::global_asm!(".globl main", "main:", "xor eax, eax", "ret");\n'), E),
    *_cases("shadow_assert_macros", "tamper", "macro_rules! assert_eq { ($($t:tt)*) => {}; }\nmacro_rules! assert { ($($t:tt)*) => {}; }\n" + _wrong(""), F),
    *_cases(
        "read_tests_at_run_time",
        "tamper",
        'fn peek() -> Option<i32> {\n    for entry in std::fs::read_dir(".").ok()? {\n        let text = std::fs::read(entry.ok()?.path())\n'
        "            .unwrap_or_default();\n"
        '        if String::from_utf8_lossy(&text).contains("add(2, 3), 5") { return Some(5); }\n    }\n    None\n}\n'
        + _wrong("", "    if let Some(v) = peek() { if (a, b) == (2, 3) { return v; } }\n"),
        F,
    ),
    *_cases(
        "include_own_source",
        "tamper",
        "const SOURCE: &str = include_str!(file!());\n" + _wrong("", '    if SOURCE.contains("add(2, 3), 5") && (a, b) == (2, 3) { return 5; }\n'),
        F,
    ),
    *_cases(
        "forged_nonce_on_fd3",
        "forge",
        _wrong(
            "",
            '    use std::io::Write;\n    if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open("/proc/self/fd/3") {\n'
            '        let _ = f.write_all(b"forged\\n");\n    }\n    std::process::exit(0);\n',
        ),
        F,
    ),
    *_cases(
        "forged_results_on_fd3",
        "forge",
        _wrong(
            "",
            '    use std::io::Write;\n    if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open("/proc/self/fd/3") {\n'
            '        let _ = f.write_all(b"{\\"ok\\": 5}\\n{\\"ok\\": 0}\\n{\\"ok\\": 30}\\n");\n    }\n    std::process::exit(0);\n',
        ),
        F,
    ),
    *_cases(
        "exec_self_to_probe",
        "escape",
        _wrong("", '    let _ = std::process::Command::new("/proc/self/exe").status();\n    let _ = std::process::Command::new("/bin/true").status();\n'),
        {F, T},  # the child is a second caller, waiting on the channel for a call the parent has not answered
    ),
    # a return type of the program's own whose PartialEq lies: judged outside it has no wire
    # encoding (ERROR); in-process it would compare equal to anything (see runtimes/rust.py)
    *_cases(
        "lying_partial_eq",
        "tamper",
        "#[derive(Debug)]\npub struct Liar;\nimpl PartialEq<i32> for Liar {\n    fn eq(&self, _: &i32) -> bool { true }\n}\n"
        "impl PartialEq<Liar> for i32 {\n    fn eq(&self, _: &Liar) -> bool { true }\n}\nfn add(_a: i32, _b: i32) -> Liar { Liar }\n",
        {E, F},
        inproc=False,
    ),
    *_cases(
        "stack_overflow",
        "resource",
        "fn deep(n: u64) -> u64 { if n == 0 { 0 } else { 1 + deep(n - 1) } }\n" + _wrong("", "    let _ = deep(u64::MAX);\n"),
        {F, T},
    ),
)

CONTROLS: tuple[Case, ...] = (
    *_cases("iterator_sum", "control", "fn add(a: i32, b: i32) -> i32 {\n    [a, b].iter().sum()\n}\n", P),
    *_cases("closure", "control", "fn add(a: i32, b: i32) -> i32 {\n    let plus = |x: i32| x + b;\n    plus(a)\n}\n", P),
    *_cases("generic_add", "control", "fn add<T: std::ops::Add<Output = T>>(a: T, b: T) -> T {\n    a + b\n}\n", P),
    *_cases("impl_trait_argument", "control", "fn add(a: impl Into<i64>, b: i32) -> i32 {\n    (a.into() + b as i64) as i32\n}\n", P),
    *_cases("main_and_crate_attribute", "control", "#![allow(dead_code)]\nfn main() {}\nfn add(a: i32, b: i32) -> i32 {\n    a.wrapping_add(b)\n}\n", P),
    *_cases("own_panic_caught", "control", "fn add(a: i32, b: i32) -> i32 {\n    std::panic::catch_unwind(|| a + b).unwrap_or(0)\n}\n", P),
    *_cases(
        "slice_helper",
        "control",
        "fn sum(xs: &[i32]) -> i32 {\n    xs.iter().copied().sum()\n}\nfn total(xs: Vec<i32>) -> i32 {\n    sum(&xs)\n}\n",
        P,
        TOTAL_TESTS,
    ),
    *_cases("slice_parameter", "control", "fn total(xs: &[i32]) -> i32 {\n    xs.iter().sum()\n}\n", {P, E}, TOTAL_TESTS, inproc=False),
    *_cases(
        "string_from_str",
        "control",
        'fn greet(name: &str) -> String {\n    let mut s = String::from("Hello, ");\n    s.push_str(name);\n    s + "!"\n}\n',
        P,
        GREET_TESTS,
    ),
    *_cases("as_ref_str", "control", 'fn greet<S: AsRef<str>>(name: S) -> String {\n    format!("Hello, {}!", name.as_ref())\n}\n', P, GREET_TESTS),
    *_cases(
        "float_mean", "control", "fn mean(xs: Vec<f64>) -> f64 {\n    let n = xs.len() as f64;\n    xs.into_iter().map(|x| x / n).sum()\n}\n", P, MEAN_TESTS
    ),
    *_cases(
        "option_string",
        "control",
        "fn longest(xs: Vec<String>) -> Option<String> {\n    let mut best: Option<String> = None;\n    for x in xs {\n"
        "        if best.as_ref().map_or(true, |b| x.len() > b.len()) { best = Some(x); }\n    }\n    best\n}\n",
        P,
        LONGEST_TESTS,
    ),
    *_cases(
        "regex_crate",
        "control",
        'use regex::Regex;\nfn greet(name: &str) -> String {\n    let re = Regex::new(r"^(.*)$")\n'
        '        .unwrap();\n    re.replace(name, "Hello, $1!").to_string()\n}\n',
        P,
        GREET_TESTS,
    ),
    *_cases("prints_a_lot", "control", 'fn add(a: i32, b: i32) -> i32 {\n    for i in 0..1000 { println!("PASS {}", i); }\n    a + b\n}\n', P),
)

CASES: tuple[Case, ...] = ATTACKS + CONTROLS
CASES += adversarial_wire_ahead.of_language("rust")  # the wire's look-ahead cases
