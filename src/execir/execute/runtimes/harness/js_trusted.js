// ExecIR's trusted record and judge runs (judged outside: see execir/execute/runtimes/js_split.py).
// Follows js_codec.js; js_record.js or js_judge.js follows it. No candidate code ever runs in
// these processes: they load the task's reference (reference.js: its helpers, e.g. poly or
// encodeCyclic) and run the task's tests (tests.js) with the entry point's name bound, inside the
// tests' own function, to a stand-in (the recorder or the replayer).
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const writeSync = fs.writeSync;
const reallyExit = process.reallyExit.bind(process);
const ENTRY = process.argv[2];
const NONCE = process.env.EXECIR_NONCE || '';

function line(text) {
  writeSync(3, text + '\n');
}

function describe(error) {
  try {
    if (error instanceof Error) return String(error.name) + ': ' + String(error.message);
    return 'thrown value: ' + String(error);
  } catch (e) {
    return 'an exception';
  }
}

function stop(message, status) {
  try { writeSync(2, 'execir: ' + message + '\n'); } catch (e) { /* nothing */ }
  reallyExit(status);
}

// Math.random as a fixed-seed generator (mulberry32): the tests' random inputs are the same in the
// record run and in every judge run, so their calls can be replayed.
function seeded(seed) {
  let state = seed >>> 0;
  return function random() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const testsRandom = seeded(0x5eed);
Math.random = testsRandom;

// crypto's random draws from Math.random at the moment of the call (the tests' stream, or the
// reference's while it runs in the record run), so tests drawing arguments from crypto.randomInt,
// randomBytes, getRandomValues or randomUUID make the same calls in the record and judge runs.
function seedCrypto(target) {
  if (target == null) return;
  const bytes = (n) => {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = Math.floor(Math.random() * 256);
    return out;
  };
  const later = (callback, value) => { process.nextTick(callback, null, value); };
  const fill = (view) => {
    const raw = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    raw.set(bytes(raw.length));
    return view;
  };
  const replace = (name, fn) => {
    try {
      Object.defineProperty(target, name, { value: fn, writable: true, configurable: true, enumerable: true });
    } catch (e) { /* a frozen binding keeps its own draws */ }
  };
  if (typeof target.randomInt === 'function') {
    replace('randomInt', function randomInt(min, max, callback) {
      if (typeof max !== 'number') { callback = max; max = min; min = 0; }
      if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max <= min) throw new RangeError('The value of "max" is out of range. It must be greater than the value of "min" (' + min + ')');
      const value = min + Math.floor(Math.random() * (max - min));
      if (typeof callback === 'function') return later(callback, value);
      return value;
    });
  }
  if (typeof target.randomBytes === 'function') {
    replace('randomBytes', function randomBytes(n, callback) {
      const value = bytes(n);
      if (typeof callback === 'function') return later(callback, value);
      return value;
    });
  }
  if (typeof target.getRandomValues === 'function') replace('getRandomValues', fill);
  if (typeof target.randomUUID === 'function') {
    replace('randomUUID', function randomUUID() {
      const b = bytes(16);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      const h = b.toString('hex');
      return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
    });
  }
}
seedCrypto(require('crypto'));
seedCrypto(require('crypto').webcrypto);
seedCrypto(globalThis.crypto);

// console.assert throws (node's only prints), as the in-process runner's does.
console.assert = function assert(value, ...message) {
  if (!value) throw new Error(message.length && typeof message[0] === 'string' ? 'Assertion failed: ' + message[0] : 'Assertion failed');
};

// The reference as a script in this context, with CommonJS's names, as the in-process runner runs
// programs; the value its top-level scope binds to the entry point's name.
function loadReference() {
  const file = path.resolve('reference.js');
  const source = fs.readFileSync(file, 'utf8');
  const localRequire = require('module').createRequire(file);
  const moduleObject = { exports: {}, id: file, filename: file, loaded: false, children: [], paths: [], require: localRequire };
  Object.assign(globalThis, { require: localRequire, module: moduleObject, exports: moduleObject.exports, __filename: file, __dirname: path.dirname(file) });
  try {
    new vm.Script(source, { filename: file }).runInThisContext();
  } catch (e) {
    stop('the reference threw while loading: ' + describe(e), 1);
  }
  let entry;
  try {
    entry = vm.runInThisContext(ENTRY);
  } catch (e) {
    stop('the reference has no ' + ENTRY, 1);
  }
  if (typeof entry !== 'function') stop('the reference\'s ' + ENTRY + ' is not a function', 1);
  return entry;
}

// `standIn` with the entry point's name and arity (tests rarely read them; cheap to keep).
function named(standIn, entry) {
  Object.defineProperty(standIn, 'name', { value: entry.name });
  Object.defineProperty(standIn, 'length', { value: entry.length });
  return standIn;
}

// The tests in a function of their own whose parameter, named as the entry point, shadows the
// reference's: every call the tests make (directly, through a variable, a callback or a helper the
// tests define) reaches `standIn`; the reference's own helpers keep calling the reference. Only
// once the tests returned and the event loop drained (promises they await, timers) with no
// uncaught error: `done()`, then the nonce line.
function runTests(standIn, done) {
  const file = path.resolve('tests.js');
  const source = fs.readFileSync(file, 'utf8');
  let tests;
  try {
    tests = new vm.Script('(function (' + ENTRY + ') {' + source + '\n})', { filename: file }).runInThisContext();
  } catch (e) {
    stop('the tests do not parse: ' + describe(e), 1);
  }
  process.on('uncaughtException', (e) => stop('test failed: ' + describe(e), 1));
  process.on('unhandledRejection', (e) => stop('test failed: ' + describe(e), 1));
  process.on('beforeExit', () => {
    done();
    if (NONCE.length < 2) stop('no nonce', 1);
    line(NONCE);
    reallyExit(0);
  });
  tests(standIn);
}
