// ExecIR's trusted caller, the candidate's run (follows js_codec.js; judged outside: see
// execir/execute/runtimes/js_split.py). It loads program.js as node would run it (a script with
// CommonJS's names, or an ES module when it has module syntax: `export`, `import`, top-level
// await), then calls the entry point once per call line it reads from fd 3 (one at a time: the next
// arrives only once this one's result is written), in order, and writes one line per call to fd 3: {"ok": VALUE} (plus "after": [[i, VALUE], ...] for arguments the call
// changed, "async": true for a promise, awaited), {"raised": NAME, "message": TEXT} for an Error,
// {"raised": null, "thrown": VALUE} for another thrown value, {"unencodable": WHY} for a value the
// wire cannot carry. Nothing here is trusted by the oracle: no test, no expected value, no helper of
// the tests is in this process; the judge reads these lines as data.
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const url = require('url');
const isPromise = require('util').types.isPromise;
const writeSync = fs.writeSync;
const reallyExit = process.reallyExit.bind(process);
const stringify = JSON.stringify;
const apply = Reflect.apply;
const ENTRY = process.argv[2];
const ErrorCtor = Error;
const StringCtor = String;
const promiseThen = Promise.prototype.then;
const MODULE_ONLY = [
  'Cannot use import statement outside a module',
  "Unexpected token 'export'",
  "Cannot use 'import.meta' outside a module",
  'await is only valid in async functions and the top level bodies of modules',
];

function stop(message) {
  try { writeSync(2, 'execir: ' + message + '\n'); } catch (e) { /* nothing */ }
  reallyExit(1);
}

function describe(error) {
  try {
    return error instanceof ErrorCtor ? StringCtor(error.name) + ': ' + StringCtor(error.message) : 'thrown value';
  } catch (e) {
    return 'an exception';
  }
}

const readSync = fs.readSync;
const concat = Buffer.concat;
const indexOf = Buffer.prototype.indexOf;
const subarray = Buffer.prototype.subarray;
const toText = Buffer.prototype.toString;
const allocate = Buffer.alloc;
let pending = allocate(0);

// The next call line from fd 3 (the host writes call k + 1 only once result k is written, and
// ends the calls by shutting the channel: null).
function nextCall() {
  const chunk = allocate(1 << 16);
  for (;;) {
    const end = apply(indexOf, pending, [10]);
    if (end >= 0) {
      const line = apply(toText, apply(subarray, pending, [0, end]), ['utf8']);
      pending = apply(subarray, pending, [end + 1]);
      return line;
    }
    let n;
    try {
      n = readSync(3, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e && e.code === 'EAGAIN') continue;
      return null;
    }
    if (n === 0) return null;
    pending = concat([pending, apply(subarray, chunk, [0, n])]);
  }
}
const file = path.resolve('program.js');
const source = fs.readFileSync(file, 'utf8');

// The entry point of program.js run as a script (node's CommonJS form: require, module, exports).
function asScript(script) {
  const localRequire = require('module').createRequire(file);
  const moduleObject = { exports: {}, id: file, filename: file, loaded: false, children: [], paths: [], require: localRequire };
  Object.assign(globalThis, { require: localRequire, module: moduleObject, exports: moduleObject.exports, __filename: file, __dirname: path.dirname(file) });
  script.runInThisContext();
  return vm.runInThisContext(ENTRY);
}

// The entry point of program.js run as an ES module (node runs a .js file with module syntax as
// one): the module's own binding of the entry point's name, exported under a name of our own.
async function asModule() {
  const moduleFile = path.resolve('program.mjs');
  fs.writeFileSync(moduleFile, source + '\n;export { ' + ENTRY + ' as __execir_entry__ };\n');
  const namespace = await import(url.pathToFileURL(moduleFile).href);
  return namespace.__execir_entry__;
}

async function load() {
  let script;
  try {
    script = new vm.Script(source, { filename: file });
  } catch (e) {
    if (e instanceof SyntaxError && MODULE_ONLY.includes(e.message)) return asModule();
    throw e;
  }
  return asScript(script);
}

function encoded(value) {
  try {
    return codec.encode(value);
  } catch (e) {
    return null;
  }
}

function raised(error, asynchronous) {
  const tail = asynchronous ? ',"async":true}' : '}';
  if (error instanceof ErrorCtor) {
    let name = 'Error', message = '';
    try { name = StringCtor(error.name); message = StringCtor(error.message); } catch (e) { /* keep */ }
    return '{"raised":' + stringify(name) + ',"message":' + stringify(message) + tail;
  }
  const thrown = encoded(error);
  return '{"raised":null' + (thrown === null ? '' : ',"thrown":' + thrown) + tail;
}

// The objects the tests hold from earlier calls (each result and argument that is an object), with
// their last wire text: a call that returns one of them says which ("same"), and one that changes
// one says so ("changed"), so the tests' copies behave as the one object they would be in one
// process (a candidate returning one shared array and overwriting it on the next call is seen).
// The oldest are dropped beyond TRACKED.
const TRACKED = 256;
const held = [];

function track(ref, value) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return;
  const text = encoded(value);
  if (text === null) return;
  held.push({ ref, value, text });
  if (held.length > TRACKED) held.shift();
}

function alias(value, args, call) {
  if (value === null || typeof value !== 'object') return null;
  for (let i = 0; i < args.length; i++) if (args[i] === value) return ['a', call, i];
  for (const entry of held) if (entry.value === value) return entry.ref;
  return null;
}

function changedHeld() {
  let out = '';
  for (const entry of held) {
    const now = encoded(entry.value);
    if (now !== null && now !== entry.text) {
      entry.text = now;
      out += (out ? ',' : '') + '[' + stringify(entry.ref) + ',' + now + ']';
    }
  }
  return out;
}

let calls = 0;

async function one(entry, text) {
  const call = calls++;
  const report = await single(entry, text, call);
  if (report.args !== null) for (let i = 0; i < report.args.length; i++) track(['a', call, i], report.args[i]);
  const changed = changedHeld();
  if (report.result !== undefined) track(['r', call], report.result);
  return report.line.slice(0, -1) + (changed ? ',"changed":[' + changed + ']' : '') + '}';
}

async function single(entry, text, call) {
  const args = codec.decodeNode(codec.parseLine(text));
  const before = [];
  for (let i = 0; i < args.length; i++) before[i] = encoded(args[i]);
  let result, asynchronous = false;
  try {
    result = apply(entry, undefined, args);
    if (isPromise(result)) {
      asynchronous = true;
      result = await new Promise((resolve, reject) => apply(promiseThen, result, [resolve, reject]));
    }
  } catch (e) {
    return { line: raised(e, asynchronous), args, result: undefined };
  }
  let changes = '';
  for (let i = 0; i < args.length; i++) {
    if (args[i] === null || typeof args[i] !== 'object') continue;
    const after = encoded(args[i]);
    if (after !== null && after !== before[i]) changes += (changes ? ',' : '') + '[' + i + ',' + after + ']';
  }
  let value;
  try {
    value = codec.encode(result);
  } catch (e) {
    return { line: '{"unencodable":' + stringify(StringCtor(e.message)) + '}', args: null, result: undefined };
  }
  const same = alias(result, args, call);
  const tail = (changes ? ',"after":[' + changes + ']' : '') + (same ? ',"same":' + stringify(same) : '') + (asynchronous ? ',"async":true' : '');
  return { line: '{"ok":' + value + tail + '}', args, result };
}

async function main() {
  let entry;
  try {
    entry = await load();
  } catch (e) {
    stop('the program threw while loading: ' + describe(e));
  }
  if (typeof entry !== 'function') stop('the program has no function ' + ENTRY);
  for (let line = nextCall(); line !== null; line = nextCall()) writeSync(3, (await one(entry, line)) + '\n');
  reallyExit(0);
}

main();
