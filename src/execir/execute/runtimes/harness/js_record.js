// ExecIR's record run (follows js_codec.js and js_trusted.js): the reference with the task's tests,
// the entry point wrapped by a recorder that writes the wire text of each call's arguments (taken
// before the call) to fd 3, then calls the reference. The reference's own calls of its entry point
// (recursion, helpers) are not the tests' and are not recorded. While the reference's entry point
// runs, Math.random is another fixed-seed stream, so the tests' stream is the same in the judge
// (where the entry point never runs).
const reference = loadReference();
const entryRandom = seeded(0xe47e);
const recorder = named(function (...args) {
  let text;
  try {
    text = codec.encodeArgs(args);
  } catch (e) {
    stop('the tests pass ' + ENTRY + ' an argument the wire cannot carry: ' + describe(e), 1);
  }
  line(text);
  const saved = Math.random;
  Math.random = entryRandom;
  try {
    return new.target ? Reflect.construct(reference, args) : Reflect.apply(reference, this, args);
  } finally {
    Math.random = saved;
  }
}, reference);
try {
  runTests(recorder, () => {});
} catch (e) {
  stop('test failed: ' + describe(e), 1);
}
