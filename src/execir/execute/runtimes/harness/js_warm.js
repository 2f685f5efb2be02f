'use strict';
// ExecIR's trusted Node runner: a warm node process, outside the candidate's sandbox, that runs the
// record and judge scripts of JavaScript and TypeScript tasks (js_record.js / js_judge.js with the
// task's reference and tests, and the candidate's values as wire text their codec decodes into
// built-in values: never candidate code) each in a fresh V8 context of its own, so a trusted run
// costs a context (about a millisecond) instead of a node start (about 30 ms of CPU).
//
// Requests and replies are frames (a 4-byte big-endian length, then JSON) on the socket whose
// descriptor is the last argument. A request names the run's files, its script and arguments, its
// environment, the nonce, its CPU, wall and memory budgets and the cap on what it may write to fd 3.
// Each run gets a private directory with those files (the process's working directory while it
// runs) and a context whose globals are node's (a `process` of its own: argv, env, exit, events;
// `require`; a console writing nowhere; timers of its own), and runs the script there as node runs a
// CommonJS script. The script's `require('fs').writeSync(3, ...)` is the run's channel, `vm`'s
// runInThisContext runs in the run's context, `process.reallyExit`/`exit` end the run (the first
// status stands; it throws to unwind the evaluation, and nothing written after it counts). Every evaluation
// (the script, a timer's callback, an event listener, and the microtasks each leaves: the context
// has its own queue) runs under the remaining CPU and wall budget; a run whose event loop drained
// gets `beforeExit`, as node's would. The reply carries the exit status, what the run wrote to fd 3
// (base64), its CPU and wall time, whether a budget, the cap or the memory budget (its peak RSS
// above the runner's before it ran) stopped it.
//
// Where a run here differs from a fresh node (the harness does none of it): `exit` listeners are
// not called; the modules `require` serves (but `fs` and `vm`) are this process's, loaded once for
// all runs; a context's global cannot be frozen; and a nested `runInThisContext` (the harness loads
// the reference so) runs the microtasks queued so far when it returns, not once the script's
// synchronous part ended (a reference whose top level schedules promise callbacks would see them
// run earlier). That last one is the price of the context's own microtask queue, which keeps a
// run's promise chains under its budget: on node's queue a runaway chain would hold the runner.
const fs = require('fs');
const net = require('net');
const path = require('path');
const vm = require('vm');
const Module = require('module');
const { Console } = require('console');
const { Writable } = require('stream');

const ROOT = process.cwd();
const CALL = '__execirWarmCall';
const TRAMPOLINE = new vm.Script('globalThis.' + CALL + '()', { filename: 'execir-warm' });
const COMPILED = new Map(); // script text -> its module-wrapper vm.Script, compiled once here
const KEEP = 16;
const NOWHERE = new Writable({ write(chunk, encoding, callback) { callback(); } });
const EVENTS = ['uncaughtException', 'unhandledRejection', 'beforeExit', 'exit'];

class Ended extends Error {}

let current = null; // the run in progress (runs are one at a time)

function peakRss() {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'latin1'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch (e) {
    return 0;
  }
}

function resetPeak() {
  try { fs.writeFileSync('/proc/self/clear_refs', '5'); } catch (e) { /* the check then counts the runner's own peak */ }
}

function compiled(text, filename) {
  let script = COMPILED.get(text);
  if (script === undefined) {
    if (COMPILED.size >= KEEP) COMPILED.clear();
    script = new vm.Script('(function (exports, require, module, __filename, __dirname) {' + text + '\n})', { filename });
    COMPILED.set(text, script);
  }
  return script;
}

function valid(req) {
  const strings = (o) => o !== null && typeof o === 'object' && !Array.isArray(o) && Object.values(o).every((v) => typeof v === 'string');
  if (req === null || typeof req !== 'object' || !strings(req.files) || !strings(req.env)) return false;
  if (typeof req.script !== 'string' || typeof req.files[req.script] !== 'string' || typeof req.nonce !== 'string') return false;
  if (!Array.isArray(req.args) || !req.args.every((a) => typeof a === 'string')) return false;
  if (![req.cpu, req.wall, req.memory_mb, req.cap].every((n) => typeof n === 'number' && n > 0)) return false;
  const texts = [...Object.keys(req.files), ...Object.values(req.files), ...Object.values(req.env), ...req.args];
  if (!texts.every((text) => text.isWellFormed())) return false; // not UTF-8 on disk: the sandbox writes those bytes
  return Object.keys(req.files).every((name) => name !== '' && !path.isAbsolute(name) && !name.split('/').includes('..'));
}

class Run {
  constructor(req, reply) {
    this.req = req;
    this.reply = reply;
    this.chunks = [];
    this.size = 0;
    this.capped = false;
    this.ended = false;
    this.status = null;
    this.timeout = null;
    this.memory = false;
    this.exitCode = undefined;
    this.timers = new Map();
    this.nextTimer = 1;
    this.listeners = Object.fromEntries(EVENTS.map((name) => [name, []]));
    this.evaluating = false;
    this.settling = false;
  }

  start() {
    this.started = process.hrtime.bigint();
    this.cpu0 = process.cpuUsage();
    this.dir = fs.mkdtempSync(path.join(ROOT, 'run-'));
    for (const [name, text] of Object.entries(this.req.files)) {
      const file = path.join(this.dir, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    }
    process.chdir(this.dir);
    const nodePath = this.req.env.NODE_PATH || '';
    if ((process.env.NODE_PATH || '') !== nodePath) {
      process.env.NODE_PATH = nodePath;
      Module._initPaths();
    }
    this.rssBefore = (resetPeak(), peakRss());
    this.wallTimer = setTimeout(() => this.stop('wall'), Math.max(1, this.req.wall * 1000 - this.elapsed()));
    this.context = vm.createContext({}, { microtaskMode: 'afterEvaluate' });
    this.global = vm.runInContext('globalThis', this.context);
    this.promises = vm.runInContext('Promise.prototype', this.context);
    const file = path.join(this.dir, this.req.script);
    let wrapper;
    try {
      wrapper = compiled(this.req.files[this.req.script], this.req.script).runInContext(this.context);
    } catch (e) {
      return this.end(1); // node's status for a script that does not parse
    }
    this.install(file);
    const moduleObject = { exports: {}, id: '.', filename: file, loaded: false, children: [], paths: Module._nodeModulePaths(this.dir) };
    const require = this.require(file);
    moduleObject.require = require;
    this.evaluate(() => Reflect.apply(wrapper, moduleObject.exports, [moduleObject.exports, require, moduleObject, file, this.dir]));
  }

  elapsed() {
    return Number(process.hrtime.bigint() - this.started) / 1e6;
  }

  cpuUsed() {
    const used = process.cpuUsage(this.cpu0);
    return (used.user + used.system) / 1e6;
  }

  // The run's `require`: node's, but `fs` whose writeSync(3, ...) is the run's channel, `vm` whose
  // runInThisContext runs in the run's context.
  require(file) {
    const real = Module.createRequire(file);
    const run = this;
    const fsOfRun = Object.assign(Object.create(fs), {
      writeSync(fd, ...rest) {
        if (fd !== 3) return fs.writeSync(fd, ...rest);
        return run.write(rest[0], rest[1]);
      },
    });
    class Script extends vm.Script {
      runInThisContext(options) { return this.runInContext(run.context, options); }
    }
    const vmOfRun = Object.assign(Object.create(vm), {
      Script,
      runInThisContext: (code, options) => vm.runInContext(code, run.context, options),
    });
    const served = { fs: fsOfRun, 'node:fs': fsOfRun, vm: vmOfRun, 'node:vm': vmOfRun, process: this.process, 'node:process': this.process };
    const required = (name) => (Object.hasOwn(served, name) ? served[name] : real(name));
    return Object.assign(required, { resolve: real.resolve, cache: real.cache, main: undefined });
  }

  write(data, encoding) {
    if (this.ended) return 0;
    const bytes = typeof data === 'string' ? Buffer.from(data, encoding || 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    this.chunks.push(Buffer.from(bytes));
    this.size += bytes.length;
    if (this.size > this.req.cap) {
      this.capped = true;
      this.end(null);
    }
    return bytes.length;
  }

  // node's globals in the run's context, with a process, console and timers of the run's own.
  install(file) {
    const run = this;
    const g = this.global;
    const on = (name, listener) => {
      if (Object.hasOwn(run.listeners, name)) run.listeners[name].push(listener);
      return fake;
    };
    const off = (name, listener) => {
      if (Object.hasOwn(run.listeners, name)) run.listeners[name] = run.listeners[name].filter((l) => l !== listener);
      return fake;
    };
    const fake = Object.create(process, {
      argv: { value: [process.execPath, file, ...this.req.args], writable: true, enumerable: true },
      env: { value: Object.assign({}, this.req.env, { EXECIR_NONCE: this.req.nonce }), writable: true, enumerable: true },
      exitCode: { get: () => run.exitCode, set: (v) => { run.exitCode = v; }, enumerable: true },
      reallyExit: { value: (code) => run.end(Number(code) | 0) },
      exit: { value: (code) => run.end(Number(code === undefined ? run.exitCode || 0 : code) | 0) },
      abort: { value: () => run.end(null, 6) },
      cwd: { value: () => run.dir },
      chdir: { value: () => { throw new Error('process.chdir is not available to a trusted run'); } },
      nextTick: { value: (callback, ...args) => g.queueMicrotask(() => callback(...args)) },
      on: { value: on }, addListener: { value: on }, prependListener: { value: on },
      once: { value: (name, listener) => on(name, function once(...a) { off(name, once); return listener(...a); }) },
      off: { value: off }, removeListener: { value: off },
      removeAllListeners: { value: (name) => { for (const key of EVENTS) if (name === undefined || name === key) run.listeners[key] = []; return fake; } },
      listeners: { value: (name) => (Object.hasOwn(run.listeners, name) ? run.listeners[name].slice() : []) },
      listenerCount: { value: (name) => (Object.hasOwn(run.listeners, name) ? run.listeners[name].length : 0) },
      emit: { value: (name, ...args) => { const found = run.listeners[name] || []; for (const l of found.slice()) l(...args); return found.length > 0; } },
    });
    this.process = fake;
    const timer = (repeat, immediate) => (callback, ms, ...args) => {
      const id = run.nextTimer++;
      const entry = { ref: true };
      const fire = () => {
        if (!repeat) run.timers.delete(id);
        run.evaluate(() => callback(...args));
      };
      entry.host = immediate ? setImmediate(fire) : (repeat ? setInterval : setTimeout)(fire, Math.max(1, Number(ms) || 1));
      run.timers.set(id, entry);
      return {
        [Symbol.toPrimitive]: () => id,
        ref() { entry.ref = true; return this; },
        unref() { entry.ref = false; return this; },
        hasRef() { return entry.ref; },
        refresh() { return this; },
        execirId: id,
      };
    };
    const clear = (handle) => {
      const id = handle !== null && typeof handle === 'object' ? handle.execirId : Number(handle);
      const entry = run.timers.get(id);
      if (entry !== undefined) {
        clearTimeout(entry.host);
        clearInterval(entry.host);
        clearImmediate(entry.host);
        run.timers.delete(id);
      }
    };
    const globals = {
      global: g, process: fake, console: new Console({ stdout: NOWHERE, stderr: NOWHERE }),
      setTimeout: timer(false, false), setInterval: timer(true, false), setImmediate: timer(false, true),
      clearTimeout: clear, clearInterval: clear, clearImmediate: clear,
      Buffer, URL, URLSearchParams, TextEncoder, TextDecoder, atob, btoa, structuredClone, performance,
      AbortController, AbortSignal, Event, EventTarget, MessageChannel, MessagePort, BroadcastChannel, Blob,
      crypto: require('crypto').webcrypto, // node's global crypto
    };
    Object.defineProperty(g, CALL, { value: () => (run.thunk ? run.thunk() : undefined) }); // fixed: a script cannot remove it
    for (const [name, value] of Object.entries(globals)) {
      Object.defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });
    }
    vm.runInContext('globalThis.queueMicrotask = (f) => { Promise.resolve().then(() => f()); };', this.context);
  }

  // `thunk` run in the context under the remaining budget (with the microtasks it leaves); an
  // exception it throws is uncaught (the run's listeners, else exit status 1).
  evaluate(thunk) {
    if (this.ended) return;
    const left = Math.min(this.req.cpu - this.cpuUsed(), this.req.wall - this.elapsed() / 1000);
    if (left <= 0) return this.stop(this.elapsed() >= this.req.wall * 1000 ? 'wall' : 'cpu');
    let thrown = null;
    this.evaluating = true;
    this.thunk = () => {
      try {
        thunk();
      } catch (e) {
        if (!(e instanceof Ended)) thrown = { error: e };
      }
    };
    try {
      TRAMPOLINE.runInContext(this.context, { timeout: Math.max(1, Math.ceil(left * 1000)) });
    } catch (e) {
      if (!this.ended) {
        if (e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return this.stop(this.elapsed() >= this.req.wall * 1000 ? 'wall' : 'cpu');
        thrown = { error: e };
      }
    } finally {
      this.evaluating = false;
      this.thunk = null;
    }
    if (thrown !== null && !this.ended) this.uncaught(thrown.error);
    this.settle();
  }

  uncaught(error) {
    const listeners = this.listeners.uncaughtException.slice();
    if (!listeners.length) return this.end(1);
    this.evaluate(() => { for (const l of listeners) l(error, 'uncaughtException'); });
  }

  rejected(reason, promise) {
    const listeners = this.listeners.unhandledRejection.slice();
    if (!listeners.length) return this.uncaught(reason);
    this.evaluate(() => { for (const l of listeners) l(reason, promise); });
  }

  // Once the host's queue had its turn (unhandled rejections are reported there): the run ended,
  // still has timers, or its loop drained (`beforeExit`, then the end with `exitCode`).
  settle() {
    if (this.settling || this.finished) return;
    this.settling = true;
    setImmediate(() => {
      this.settling = false;
      if (this.ended) return this.finish();
      if (this.alive()) return;
      if (this.listeners.beforeExit.length) {
        this.evaluate(() => { for (const l of this.listeners.beforeExit.slice()) l(this.exitCode || 0); });
        if (this.ended || this.alive()) return;
      }
      this.end(Number(this.exitCode || 0) | 0);
    });
  }

  alive() {
    return [...this.timers.values()].some((t) => t.ref);
  }

  // The run's end with `status` (or `signal`): the first end stands; an evaluation in progress is
  // unwound by a throw (code that catches it runs on, within the budget, and nothing it writes counts).
  end(status, signal) {
    if (!this.ended) {
      this.ended = true;
      this.status = status;
      this.signal = signal || null;
      if (status === null && signal === undefined) this.signal = 9;
      this.settle();
    }
    if (this.evaluating) throw new Ended();
    return undefined;
  }

  stop(why) {
    if (this.ended) return;
    this.timeout = why;
    this.ended = true;
    this.signal = 9;
    this.finish();
  }

  abandon() {
    this.finished = this.ended = true;
    clearTimeout(this.wallTimer);
    process.chdir(ROOT);
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    current = null;
  }

  finish() {
    if (this.finished) return;
    this.finished = true;
    this.ended = true;
    clearTimeout(this.wallTimer);
    for (const entry of this.timers.values()) {
      clearTimeout(entry.host);
      clearInterval(entry.host);
      clearImmediate(entry.host);
    }
    this.timers.clear();
    const cpu = this.cpuUsed();
    const grown = peakRss() - this.rssBefore;
    if (grown > this.req.memory_mb * 1048576 && !this.timeout) {
      this.memory = true;
      this.status = null;
      this.signal = 9;
    }
    if (!this.timeout && cpu > this.req.cpu) this.timeout = 'cpu';
    process.chdir(ROOT);
    fs.rmSync(this.dir, { recursive: true, force: true });
    const data = Buffer.concat(this.chunks).subarray(0, this.req.cap + 1);
    current = null;
    this.context = null;
    this.global = null;
    this.reply({
      status: this.signal === null ? this.status : null,
      signal: this.signal,
      data: data.toString('base64'),
      timeout: this.timeout,
      capped: this.capped,
      memory: this.memory,
      cpu,
      wall: this.elapsed() / 1000,
    });
  }
}

process.on('unhandledRejection', (reason, promise) => {
  // only a promise of the run's own context (one of an earlier run's is not this run's failure)
  if (current !== null && !current.ended && Object.getPrototypeOf(promise) === current.promises) current.rejected(reason, promise);
});

function main() {
  // a node without what the runs need never says hello: the plans then run in the sandbox
  if (typeof String.prototype.isWellFormed !== 'function') process.reallyExit(1); // node < 20
  const socket = new net.Socket({ fd: Number(process.argv[process.argv.length - 1]), readable: true, writable: true });
  const send = (obj) => {
    const body = Buffer.from(JSON.stringify(obj), 'utf8');
    const header = Buffer.alloc(4);
    header.writeUInt32BE(body.length);
    socket.write(Buffer.concat([header, body]));
  };
  let pending = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
      const size = pending.readUInt32BE(0);
      const body = pending.subarray(4, 4 + size);
      pending = pending.subarray(4 + size);
      let req;
      try {
        req = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
      } catch (e) {
        req = null;
      }
      if (!valid(req) || current !== null) {
        send({ op: 'decline' });
        continue;
      }
      current = new Run(req, send);
      try {
        current.start();
      } catch (e) { // the run's directory could not be made: the plan runs in the sandbox
        current.abandon();
        send({ op: 'decline' });
      }
    }
  });
  socket.on('end', () => process.reallyExit(0));
  socket.on('error', () => process.reallyExit(0));
  send({ op: 'hello', node: process.version });
}

main();
