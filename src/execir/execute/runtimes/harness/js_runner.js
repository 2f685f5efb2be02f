'use strict';
// ExecIR's trusted runner: see execir/execute/runtimes/js.py.
// prepare (steps 1-3) reads no candidate input and needs only built-in modules: in a start-up
// snapshot built by trusted code (`node --build-snapshot`) it ran once, at build time, and every run
// (a fresh process deserialised from that snapshot) starts at run(); without a snapshot both run in
// turn. run() takes the nonce, reads the program and the tests, and does steps 4-6.
const fs = require('fs');
const path = require('path');
const v8 = require('v8');
const writeSync = fs.writeSync;
const INTRINSICS = __INTRINSICS__;
const { getOwnPropertyDescriptor, defineProperty, getPrototypeOf, freeze } = Object;
const ownKeys = Reflect.ownKeys;
const apply = Reflect.apply;
const SafeMap = Map;
const mapGet = Map.prototype.get, mapSet = Map.prototype.set, mapHas = Map.prototype.has;
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;
const StringCtor = String;
const hasOwn = Object.hasOwn;
const is = Object.is;
const regexpTest = RegExp.prototype.test;
const regexpExec = RegExp.prototype.exec;
const arrayJoin = Array.prototype.join;
const arrayPush = Array.prototype.push;
const INDEX = /^(0|[1-9][0-9]*)$/;
const DENIED = new Map([['toJSON', 1], ['get', 1], ['set', 1], ['value', 1], ['writable', 1], ['enumerable', 1], ['configurable', 1], ['then', 1]]);
const TAMED = ['constructor', 'toString', 'valueOf', 'toLocaleString', 'message', 'name', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable'];
const tamedOn = [Object.prototype, Function.prototype, Array.prototype, Error.prototype, TypeError.prototype, RangeError.prototype, Promise.prototype];
let reallyExit = null;

function fail(message) {
  try { writeSync(2, 'execir: ' + message + '\n'); } catch (e) { /* nothing */ }
  reallyExit(1);
}

const stringSplit = String.prototype.split;
const stringIncludes = String.prototype.includes;
function describe(error) {
  try {
    if (!(error instanceof ErrorCtor)) return 'thrown value: ' + StringCtor(error);
    const lines = apply(stringSplit, StringCtor(error.stack || error), ['\n']);
    let text = StringCtor(error.name) + ': ' + StringCtor(error.message);
    for (let i = 0; i < lines.length; i++) {
      if (apply(stringIncludes, lines[i], ['program.js']) || apply(stringIncludes, lines[i], ['tests.js'])) text += '\n' + lines[i];
    }
    return text;
  } catch (e) {
    return 'an exception';
  }
}

// 1. console.assert throws, and nothing can replace it.
function assert(value, ...message) {
  if (!value) {
    const text = message.length && typeof message[0] === 'string' ? 'Assertion failed: ' + message[0] : 'Assertion failed';
    throw new ErrorCtor(text);
  }
}
defineProperty(console, 'assert', { value: assert, writable: false, enumerable: true, configurable: false });

// 2. Trusted modules for the tests, then a trusted require.
const trusted = new SafeMap();
function deepFreeze(root, skip) {
  const stack = [root];
  const seen = new Set();
  while (stack.length) {
    const obj = stack.pop();
    if ((typeof obj !== 'object' && typeof obj !== 'function') || obj === null || seen.has(obj) || apply(mapHas, skip, [obj])) continue;
    seen.add(obj);
    for (const key of ownKeys(obj)) {
      const desc = getOwnPropertyDescriptor(obj, key);
      if ('value' in desc) stack.push(desc.value); else { stack.push(desc.get); stack.push(desc.set); }
    }
    stack.push(getPrototypeOf(obj));
    freeze(obj);
  }
}
const ALWAYS = ['assert', 'node:assert', 'assert/strict', 'node:assert/strict'];

// 3. The intrinsics: every object reachable from the ECMAScript globals, with its properties.
const names = new SafeMap();
const walk = [];
for (const name of INTRINSICS) {
  if (name === 'console' || name === 'globalThis' || name === 'structuredClone') continue;
  const desc = getOwnPropertyDescriptor(globalThis, name);
  if (desc && 'value' in desc) walk.push([desc.value, name]);
}
while (walk.length) {
  const [obj, label] = walk.pop();
  if ((typeof obj !== 'object' && typeof obj !== 'function') || obj === null || apply(mapHas, names, [obj])) continue;
  apply(mapSet, names, [obj, label]);
  for (const key of ownKeys(obj)) {
    const desc = getOwnPropertyDescriptor(obj, key);
    const sub = label + '.' + StringCtor(typeof key === 'symbol' ? key.toString() : key);
    if ('value' in desc) walk.push([desc.value, sub]); else { walk.push([desc.get, sub + '<get>']); walk.push([desc.set, sub + '<set>']); }
  }
  walk.push([getPrototypeOf(obj), label + '.__proto__']);
}
for (const spec of ALWAYS) apply(mapSet, trusted, [spec, require(spec)]);
for (const spec of ALWAYS) deepFreeze(apply(mapGet, trusted, [spec]), names);
let realRequire = null;
// modules that read this process's heap or frames (the tests' text, their closures) are not served
const UNSERVED = new SafeMap([['v8', 1], ['node:v8', 1], ['inspector', 1], ['node:inspector', 1], ['inspector/promises', 1], ['node:inspector/promises', 1], ['module', 1], ['node:module', 1]]);
function trustedRequire(spec) {
  const found = apply(mapGet, trusted, [spec]);
  if (found !== undefined) return found;
  if (apply(mapHas, UNSERVED, [spec])) throw new ErrorCtor("execir: require('" + StringCtor(spec) + "') is not available to programs");
  return realRequire(spec);
}
defineProperty(globalThis, 'require', { value: trustedRequire, writable: false, enumerable: false, configurable: false });
// A global binding is locked (non-writable, non-configurable) only where the tests can read it:
// console always, the others in run() when the tests name them. A program's own `function escape`
// or `const isFinite` is legitimate when the tests never use that global.
function lock(name) {
  const desc = getOwnPropertyDescriptor(globalThis, name);
  if (desc && 'value' in desc) defineProperty(globalThis, name, { value: desc.value, writable: false, enumerable: desc.enumerable, configurable: false });
}
lock('console');
const saved = [];
for (const [obj, label] of names) {
  const props = [];
  for (const key of ownKeys(obj)) props.push([key, getOwnPropertyDescriptor(obj, key)]);
  saved.push([obj, label, getPrototypeOf(obj), props]);
}
freeze(saved);

function run() {
  reallyExit = process.reallyExit.bind(process);
  // the nonce (moved into a file by the sh that started node) and the tests' text are read and
  // their files deleted before any candidate code runs
  const noncePath = path.resolve('.execir-nonce');
  const nonce = apply(stringSplit, fs.readFileSync(noncePath, 'utf8'), ['\n'])[0];
  fs.unlinkSync(noncePath);
  if (nonce.length < 2) fail('no nonce');
  const programPath = path.resolve('program.js');
  const testsPath = path.resolve('tests.js');
  const programSource = fs.readFileSync(programPath, 'utf8');
  const testsSource = fs.readFileSync(testsPath, 'utf8');
  fs.unlinkSync(testsPath);
  for (const name of INTRINSICS) {
    if (apply(regexpTest, new RegExp('(^|[^A-Za-z0-9_$])' + name + '($|[^A-Za-z0-9_$])'), [testsSource])) lock(name);
  }
  const vm = require('vm');
  realRequire = require('module').createRequire(programPath);
  trustedRequire.resolve = realRequire.resolve;
  trustedRequire.cache = realRequire.cache;
  // the modules the tests require (besides assert), loaded and frozen before the program runs
  const wanted = [];
  const pattern = /\brequire\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g;
  for (let m; (m = apply(regexpExec, pattern, [testsSource])) !== null;) apply(arrayPush, wanted, [m[2]]);
  for (let i = 0; i < wanted.length; i++) {
    const spec = wanted[i];
    if (apply(mapHas, trusted, [spec])) continue;
    let loaded;
    try { loaded = realRequire(spec); } catch (e) { continue; }
    apply(mapSet, trusted, [spec, loaded]);
    deepFreeze(loaded, names);
  }
  const moduleObject = { exports: {}, id: programPath, filename: programPath, loaded: false, children: [], paths: [], require: trustedRequire };
  defineProperty(globalThis, 'module', { value: moduleObject, writable: true, enumerable: false, configurable: true });
  defineProperty(globalThis, 'exports', { value: moduleObject.exports, writable: true, enumerable: false, configurable: true });
  defineProperty(globalThis, '__filename', { value: programPath, writable: true, enumerable: false, configurable: true });
  defineProperty(globalThis, '__dirname', { value: path.dirname(programPath), writable: true, enumerable: false, configurable: true });

  // 4. The program.
  try {
    new vm.Script(programSource, { filename: programPath }).runInThisContext();
  } catch (e) {
    fail('the program threw while loading: ' + describe(e));
  }

  // 5. Check, then freeze, the intrinsics. Only functions captured before the program ran and
  // index loops (no iterators, no inherited descriptor fields) are used from here on.
  const problems = [];
  let changed = 0;
  function note(label, key, what) {
    changed += 1;
    if (changed <= 5) problems[changed - 1] = label + '.' + StringCtor(key) + ' ' + what;
  }
  function same(a, b) {
    return is(a.value, b.value) && a.get === b.get && a.set === b.set &&
      a.writable === b.writable && a.enumerable === b.enumerable && a.configurable === b.configurable;
  }
  for (let i = 0; i < saved.length; i++) {
    const entry = saved[i];
    const obj = entry[0], label = entry[1], props = entry[3];
    if (getPrototypeOf(obj) !== entry[2]) note(label, '__proto__', 'changed');
    const before = new SafeMap();
    for (let j = 0; j < props.length; j++) {
      const key = props[j][0];
      apply(mapSet, before, [key, true]);
      const now = getOwnPropertyDescriptor(obj, key);
      if (now === undefined || !same(now, props[j][1])) note(label, key, 'changed or deleted');
    }
    const keys = ownKeys(obj);
    for (let j = 0; j < keys.length; j++) {
      const key = keys[j];
      if (apply(mapHas, before, [key])) continue;
      if (typeof key === 'symbol' || apply(mapHas, DENIED, [key]) || apply(regexpTest, INDEX, [key])) note(label, key, 'added');
    }
  }
  if (changed) fail('the program changes built-ins the tests rely on: ' + apply(arrayJoin, problems, ['; ']));
  for (let i = 0; i < tamedOn.length; i++) {
    const proto = tamedOn[i];
    for (let j = 0; j < TAMED.length; j++) {
      const key = TAMED[j];
      const desc = getOwnPropertyDescriptor(proto, key);
      if (desc === undefined || !hasOwn(desc, 'value') || !desc.configurable) continue;
      const value = desc.value;
      defineProperty(proto, key, {
        __proto__: null,
        get() { return value; },
        set(v) {
          if (this === proto) throw new TypeErrorCtor('execir: cannot assign ' + key + ' on a frozen built-in');
          defineProperty(this, key, { __proto__: null, value: v, writable: true, enumerable: true, configurable: true });
        },
        enumerable: desc.enumerable,
        configurable: false,
      });
    }
  }
  for (let i = 0; i < saved.length; i++) freeze(saved[i][0]);

  // 6. The tests, in a strict function of their own: their declarations are not globals the program
  // could read (`String(testAdd)`), and a strict caller is hidden from the program's functions
  // (`add.caller` is null, a stack frame's getFunction() undefined). The record only if they return.
  try {
    new vm.Script('(function () {\'use strict\';' + testsSource + '\n})();', { filename: testsPath }).runInThisContext();
  } catch (e) {
    fail('test failed: ' + describe(e));
  }
  writeSync(3, nonce + '\n');
  reallyExit(0);
}

if (v8.startupSnapshot.isBuildingSnapshot()) v8.startupSnapshot.setDeserializeMainFunction(run);
else run();
