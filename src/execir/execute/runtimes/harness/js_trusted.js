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
