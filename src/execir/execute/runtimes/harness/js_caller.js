// ExecIR's trusted caller, the candidate's run (follows js_codec.js; judged outside: see
// execir/execute/runtimes/js_split.py). It loads program.js as node would run it (a script with
// CommonJS's names, or an ES module when it has module syntax: `export`, `import`, top-level
// await), then calls the entry point once per line of the recorded calls, in order, and writes one
// line per call to fd 3: {"ok": VALUE} (plus "after": [[i, VALUE], ...] for arguments the call
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

const calls = fs.readFileSync('execir_calls.jsonl', 'utf8').split('\n');
if (calls.length && calls[calls.length - 1] === '') calls.pop();
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

async function one(entry, text) {
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
    return raised(e, asynchronous);
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
    return '{"unencodable":' + stringify(StringCtor(e.message)) + '}';
  }
  return '{"ok":' + value + (changes ? ',"after":[' + changes + ']' : '') + (asynchronous ? ',"async":true' : '') + '}';
}

async function main() {
  let entry;
  try {
    entry = await load();
  } catch (e) {
    stop('the program threw while loading: ' + describe(e));
  }
  if (typeof entry !== 'function') stop('the program has no function ' + ENTRY);
  for (let i = 0; i < calls.length; i++) writeSync(3, (await one(entry, calls[i])) + '\n');
  reallyExit(0);
}

main();
