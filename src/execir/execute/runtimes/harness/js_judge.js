// ExecIR's judge run (follows js_codec.js and js_trusted.js): the reference (its helpers, never the
// candidate's) with the task's tests, the entry point replaced by a replayer. Call i encodes its
// arguments; text other than line i of the recorded calls asks the oracle for that call (line
// {"need": i}, the arguments' line, exit NEED_STATUS). Otherwise it returns the candidate's result
// for call i, decoded into built-in values (js_codec.js), after applying to the arguments the
// changes the candidate's call made to them ("after"); a call that raised throws the standard
// error of that name (or the thrown value); an async result is a promise of the value.
const NEED_STATUS = Number(process.argv[3]);
const STANDARD = { Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError };

function lines(name) {
  const text = fs.readFileSync(name, 'utf8');
  const found = text.split('\n');
  if (found.length && found[found.length - 1] === '') found.pop();
  return found;
}

const reference = loadReference();
const calls = lines('execir_calls.jsonl');
const results = lines('execir_results.jsonl');
let index = 0;

function malformed(i, why) {
  line(JSON.stringify({ malformed: i }));
  stop('result ' + i + ': ' + why, 1);
}

// The arguments' contents replaced by the candidate's changes to them (an array sorted in place).
function mutate(target, value) {
  if (Array.isArray(target) && Array.isArray(value)) {
    target.length = 0;
    for (let k = 0; k < value.length; k++) if (k in value) target[k] = value[k];
    target.length = value.length;
  } else if (target instanceof Map && value instanceof Map) {
    target.clear();
    for (const [k, v] of value) target.set(k, v);
  } else if (target instanceof Set && value instanceof Set) {
    target.clear();
    for (const v of value) target.add(v);
  } else if (target !== null && typeof target === 'object' && !Array.isArray(value) && value !== null && typeof value === 'object') {
    for (const key of Object.keys(target)) delete target[key];
    for (const key of Object.keys(value)) target[key] = value[key];
  }
}

// What the tests were given by each call (its arguments and its result), for the candidate's
// "same" (a result that is an object the tests already hold) and "changed" (an object the tests
// hold, changed by a later call).
const passed = [];
const returned = [];

function held(ref, i) {
  if (!Array.isArray(ref) || !Number.isInteger(ref[1]) || ref[1] < 0 || ref[1] > i) return undefined;
  if (ref[0] === 'r' && ref.length === 2 && ref[1] < i) return returned[ref[1]];
  if (ref[0] === 'a' && ref.length === 3 && Number.isInteger(ref[2]) && passed[ref[1]] && ref[2] >= 0 && ref[2] < passed[ref[1]].length) return passed[ref[1]][ref[2]];
  return undefined;
}

function reply(i, args) {
  passed[i] = args;
  const value = answer(i, args);
  returned[i] = value;
  return value;
}

function answer(i, args) {
  let report;
  try {
    report = codec.parseLine(results[i]);
  } catch (e) {
    return malformed(i, 'not JSON');
  }
  if (report === null || typeof report !== 'object' || Array.isArray(report)) return malformed(i, 'not a report');
  let outcome;
  try {
    if (Object.hasOwn(report, 'after')) {
      if (!Array.isArray(report.after)) return malformed(i, 'after is not a list');
      for (const change of report.after) {
        if (!Array.isArray(change) || change.length !== 2 || !Number.isInteger(change[0]) || change[0] < 0 || change[0] >= args.length) return malformed(i, 'a bad change');
        mutate(args[change[0]], codec.decodeNode(change[1]));
      }
    }
    if (Object.hasOwn(report, 'changed')) {
      if (!Array.isArray(report.changed)) return malformed(i, 'changed is not a list');
      for (const change of report.changed) {
        const target = Array.isArray(change) && change.length === 2 ? held(change[0], i) : undefined;
        if (target === null || typeof target !== 'object') return malformed(i, 'a bad change of an earlier value');
        mutate(target, codec.decodeNode(change[1]));
      }
    }
    if (Object.hasOwn(report, 'ok')) {
      outcome = { value: codec.decodeNode(report.ok) };
      if (Object.hasOwn(report, 'same')) {
        const target = held(report.same, i);
        if (target === null || typeof target !== 'object') return malformed(i, 'same names no object the tests hold');
        mutate(target, outcome.value);
        outcome = { value: target };
      }
    } else if (Object.hasOwn(report, 'raised')) {
      if (report.raised === null) {
        outcome = { error: Object.hasOwn(report, 'thrown') ? codec.decodeNode(report.thrown) : undefined };
      } else {
        if (typeof report.raised !== 'string') return malformed(i, 'raised is not a name');
        const Ctor = Object.hasOwn(STANDARD, report.raised) ? STANDARD[report.raised] : Error;
        outcome = { error: new Ctor(typeof report.message === 'string' ? report.message : 'raised by the candidate') };
      }
    } else {
      return malformed(i, 'neither ok nor raised');
    }
  } catch (e) {
    if (e instanceof codec.Malformed) return malformed(i, e.message);
    throw e;
  }
  if (report.async === true) return Object.hasOwn(outcome, 'error') ? Promise.reject(outcome.error) : Promise.resolve(outcome.value);
  if (Object.hasOwn(outcome, 'error')) throw outcome.error;
  return outcome.value;
}

const replayer = named(function (...args) {
  let text;
  try {
    text = codec.encodeArgs(args);
  } catch (e) {
    stop('the tests pass ' + ENTRY + ' an argument the wire cannot carry: ' + describe(e), 1);
  }
  const i = index++;
  if (i >= calls.length || calls[i] !== text) {
    line(JSON.stringify({ need: i }));
    line(text);
    reallyExit(NEED_STATUS);
  }
  if (i >= results.length) {
    line(JSON.stringify({ missing: i }));
    stop('no result for call ' + i, 1);
  }
  return reply(i, args);
}, reference);
try {
  runTests(replayer, () => {});
} catch (e) {
  stop('test failed: ' + describe(e), 1);
}
