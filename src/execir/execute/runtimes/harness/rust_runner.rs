// The in-process runner of Rust native tests (trusted; see runtimes/rust.py). The program and the
// tests are one library crate compiled with `-F unsafe_code` (no program code can run before this
// `main`: Rust has no life before main without `#[link_section]`, `#[no_mangle]` or `unsafe`); this
// binary crate links it. It forbids exec (seccomp), takes the run's nonce out of NONCE_FILE before
// any test runs, runs every test function in order on this thread (a failing assert panics and
// ends the process with status 101), and only then writes the nonce to fd 3.
use std::io::Write;
use std::os::fd::FromRawFd;

const NONCE_FILE: &str = "@NONCE_FILE@";
const NONCE_MAX: usize = 128;

extern "C" {
    fn prctl(option: i32, arg2: u64, arg3: u64, arg4: u64, arg5: u64) -> i32;
    fn syscall(number: i64, ...) -> i64;
    fn getrandom(buf: *mut u8, len: usize, flags: u32) -> isize;
}

#[repr(C)]
struct SockFilter {
    code: u16,
    jt: u8,
    jf: u8,
    k: u32,
}

#[repr(C)]
struct SockFprog {
    len: u16,
    filter: *const SockFilter,
}

#[cfg(target_arch = "x86_64")]
const ARCH: (u32, u32, u32, i64) = (0xC000_003E, 59, 322, 317);
#[cfg(target_arch = "aarch64")]
const ARCH: (u32, u32, u32, i64) = (0xC000_00B7, 221, 281, 277);

// No program may be executed once the runner has started: a program that ran this executable
// again with guessed answers could learn the expected values from how far the tests got. The
// filter (inherited by every thread and child) answers execve and execveat with EPERM.
fn forbid_exec() -> bool {
    let (arch, execve, execveat, seccomp) = ARCH;
    let eperm = 0x0005_0000u32 | 1;
    let f = |code: u16, k: u32, jt: u8, jf: u8| SockFilter { code, jt, jf, k };
    let filter = [
        f(0x20, 4, 0, 0), // ld arch
        f(0x15, arch, 1, 0),
        f(0x06, eperm, 0, 0),
        f(0x20, 0, 0, 0), // ld nr
        f(0x35, 0x4000_0000, 3, 0),
        f(0x15, execve, 2, 0),
        f(0x15, execveat, 1, 0),
        f(0x06, 0x7fff_0000, 0, 0),
        f(0x06, eperm, 0, 0),
    ];
    let program = SockFprog { len: filter.len() as u16, filter: filter.as_ptr() };
    unsafe {
        if prctl(38, 1, 0, 0, 0) != 0 {
            return false;
        }
        syscall(seccomp, 1i64, 1i64, &program as *const SockFprog) == 0
    }
}

// The nonce, masked with per-run random bytes (it never sits in memory as the text it is written as).
fn take_nonce() -> Option<(Vec<u8>, Vec<u8>)> {
    let raw = std::fs::read(NONCE_FILE).ok();
    let _ = std::fs::remove_file(NONCE_FILE);
    let mut raw = raw?;
    while raw.last().is_some_and(|c| *c == b'\n' || *c == b'\r') {
        raw.pop();
    }
    if raw.is_empty() || raw.len() >= NONCE_MAX {
        return None;
    }
    let mut mask = vec![0u8; raw.len()];
    if unsafe { getrandom(mask.as_mut_ptr(), mask.len(), 0) } != mask.len() as isize {
        return None;
    }
    for (byte, m) in raw.iter_mut().zip(mask.iter()) {
        *byte ^= *m;
    }
    Some((raw, mask))
}

fn main() {
    let forbidden = forbid_exec();
    let nonce = take_nonce();
    for test in execir_program::@MODULE@::execir_tests() {
        test();
    }
    let _ = std::io::stdout().flush();
    let (value, mask) = match nonce {
        Some(found) if forbidden => found,
        _ => {
            eprintln!("execir: no nonce, or exec could not be forbidden (seccomp)");
            std::process::exit(122);
        }
    };
    let mut record: Vec<u8> = value.iter().zip(mask.iter()).map(|(a, b)| a ^ b).collect();
    record.push(b'\n');
    let mut channel = unsafe { std::fs::File::from_raw_fd(3) };
    if channel.write_all(&record).is_err() {
        std::process::exit(122);
    }
    std::process::exit(0);
}
