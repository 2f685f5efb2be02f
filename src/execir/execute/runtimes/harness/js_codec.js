// ExecIR's JavaScript wire codec (judged outside: see execir/execute/runtimes/js_split.py).
// The first part of every split script (record, judge, the candidate's caller); it captures the
// built-ins it uses when it loads, before any program runs.
//
// A wire value is one JSON text. null, booleans, strings and finite numbers (other than -0) are
// themselves (JSON.stringify: numbers round-trip exactly, lone surrogates are escaped); a dense
// array is a JSON array of wire values; everything else is an object tagged by "$":
//   {"$":"u"} undefined   {"$":"n","v":"NaN"|"Infinity"|"-Infinity"|"-0"}   {"$":"b","v":"-12"} BigInt
//   {"$":"h","n":LENGTH,"v":[[INDEX,VALUE],...]} an array with holes
//   {"$":"m","v":[[KEY,VALUE],...]} Map   {"$":"s","v":[VALUE,...]} Set   {"$":"d","v":TIME} Date
//   {"$":"o","v":[[KEY,VALUE],...]} any other object: its own enumerable string keys, in order, with
//     "c":NAME when its prototype is not Object.prototype (its constructor's name; null: no prototype)
//   {"$":"A","v":[VALUE,...],"c":NAME,"p":[[KEY,VALUE],...]} a dense array of a subclass ("c") or with
//     own enumerable properties beyond its indexes ("p"), as node's deepStrictEqual compares them
//   {"$":"z","k":"f"|"s"|"x","v":VALUE} a frozen, sealed or non-extensible object
// (the receiver builds a class of that name, with no method of the sender's, and freezes or seals).
// Functions, symbols and cycles are refused (encode throws Unencodable). decode builds built-in
// values only (plain objects, arrays, Map, Set, Date): no prototype, getter or method of the sender.
const codec = (() => {
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const apply = Reflect.apply;
  const isArray = Array.isArray;
  const objectKeys = Object.keys;
  const hasOwn = Object.hasOwn;
  const is = Object.is;
  const defineProperty = Object.defineProperty;
  const join = Array.prototype.join;
  const push = Array.prototype.push;
  const CodecMap = Map, CodecSet = Set, CodecDate = Date, CodecBigInt = BigInt, CodecError = Error;
  const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, 'size').get;
  const setSize = Object.getOwnPropertyDescriptor(Set.prototype, 'size').get;
  const mapForEach = Map.prototype.forEach, setForEach = Set.prototype.forEach;
  const mapSet = Map.prototype.set, setAdd = Set.prototype.add, setHas = Set.prototype.has, setDelete = Set.prototype.delete;
  const getTime = Date.prototype.getTime;
  const bigintToString = BigInt.prototype.toString;
  const regexpTest = RegExp.prototype.test;
  const BIGINT = /^-?(0|[1-9][0-9]*)$/;
  const MAX_NODES = 4000000;
  const MAX_DEPTH = 3000;
  const SPECIAL = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };
  const getPrototypeOf = Object.getPrototypeOf, getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const objectCreate = Object.create, freeze = Object.freeze, seal = Object.seal, preventExtensions = Object.preventExtensions;
  const isFrozen = Object.isFrozen, isSealed = Object.isSealed, isExtensible = Object.isExtensible;
  const ArrayProto = Array.prototype, ObjectProto = Object.prototype;
  const INTEGRITY = { f: freeze, s: seal, x: preventExtensions };
  const classes = new CodecMap();
  const mapGet = Map.prototype.get, mapHas = Map.prototype.has;

  // The name of the constructor of a prototype (its own "constructor" data property), or "".
  function className(proto) {
    try {
      const found = getOwnPropertyDescriptor(proto, 'constructor');
      return found && typeof found.value === 'function' && typeof found.value.name === 'string' ? found.value.name : '';
    } catch (e) {
      return '';
    }
  }
  // One class per name, with none of the sender's methods: values of different classes compare
  // unequal under deepStrictEqual, as the sender's did.
  function classFor(name, array) {
    const key = (array ? 'A:' : 'O:') + name;
    if (!apply(mapHas, classes, [key])) apply(mapSet, classes, [key, array ? { [name]: class extends Array {} }[name] : { [name]: class {} }[name]]);
    return apply(mapGet, classes, [key]);
  }
  function integrity(value, text) {
    if (isFrozen(value)) return '{"$":"z","k":"f","v":' + text + '}';
    if (isSealed(value)) return '{"$":"z","k":"s","v":' + text + '}';
    if (!isExtensible(value)) return '{"$":"z","k":"x","v":' + text + '}';
    return text;
  }

  class Unencodable extends CodecError {}
  class Malformed extends CodecError {}

  function brand(getter, value) {
    try { apply(getter, value, []); return true; } catch (e) { return false; }
  }
  function number(value) {
    if (value !== value) return '{"$":"n","v":"NaN"}';
    if (value === Infinity) return '{"$":"n","v":"Infinity"}';
    if (value === -Infinity) return '{"$":"n","v":"-Infinity"}';
    if (is(value, -0)) return '{"$":"n","v":"-0"}';
    return stringify(value);
  }

  // The wire text of `value`; `state` counts nodes and holds the objects on the current path.
  function encodeIn(value, state, depth) {
    if (++state.nodes > MAX_NODES) throw new Unencodable('more than ' + MAX_NODES + ' values');
    if (depth > MAX_DEPTH) throw new Unencodable('nested deeper than ' + MAX_DEPTH);
    switch (typeof value) {
      case 'undefined': return '{"$":"u"}';
      case 'boolean': return value ? 'true' : 'false';
      case 'number': return number(value);
      case 'string': return stringify(value);
      case 'bigint': return '{"$":"b","v":"' + apply(bigintToString, value, []) + '"}';
      case 'object': break;
      default: throw new Unencodable('a ' + typeof value + ' cannot be sent');
    }
    if (value === null) return 'null';
    if (apply(setHas, state.path, [value])) throw new Unencodable('a cyclic value');
    apply(setAdd, state.path, [value]);
    const parts = [];
    let text;
    if (isArray(value)) {
      const length = value.length;
      let dense = true;
      for (let i = 0; i < length && dense; i++) dense = hasOwn(value, i);
      if (dense) {
        for (let i = 0; i < length; i++) apply(push, parts, [encodeIn(value[i], state, depth + 1)]);
        text = '[' + apply(join, parts, [',']) + ']';
        const proto = getPrototypeOf(value);
        const keys = objectKeys(value);
        const extra = [];
        for (let i = 0; i < keys.length; i++) {
          if (apply(regexpTest, /^(0|[1-9][0-9]*)$/, [keys[i]])) continue; // an index (a proxy may claim more than its length)
          apply(push, extra, ['[' + stringify(keys[i]) + ',' + encodeIn(value[keys[i]], state, depth + 1) + ']']);
        }
        if (proto !== ArrayProto || extra.length) {
          text = '{"$":"A","v":' + text + (proto !== ArrayProto ? ',"c":' + stringify(proto === null ? null : className(proto)) : '') +
            (extra.length ? ',"p":[' + apply(join, extra, [',']) + ']' : '') + '}';
        }
      } else {
        const keys = objectKeys(value);
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i];
          if (apply(regexpTest, /^(0|[1-9][0-9]*)$/, [key]) && +key < length) apply(push, parts, ['[' + key + ',' + encodeIn(value[key], state, depth + 1) + ']']);
        }
        text = '{"$":"h","n":' + length + ',"v":[' + apply(join, parts, [',']) + ']}';
      }
    } else if (brand(mapSize, value)) {
      apply(mapForEach, value, [(v, k) => apply(push, parts, ['[' + encodeIn(k, state, depth + 1) + ',' + encodeIn(v, state, depth + 1) + ']'])]);
      text = '{"$":"m","v":[' + apply(join, parts, [',']) + ']}';
    } else if (brand(setSize, value)) {
      apply(setForEach, value, [(v) => apply(push, parts, [encodeIn(v, state, depth + 1)])]);
      text = '{"$":"s","v":[' + apply(join, parts, [',']) + ']}';
    } else if (brand(getTime, value)) {
      text = '{"$":"d","v":' + number(apply(getTime, value, [])) + '}';
    } else {
      const keys = objectKeys(value);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        apply(push, parts, ['[' + stringify(key) + ',' + encodeIn(value[key], state, depth + 1) + ']']);
      }
      const proto = getPrototypeOf(value);
      const named = proto === ObjectProto ? '' : ',"c":' + stringify(proto === null ? null : className(proto));
      text = '{"$":"o","v":[' + apply(join, parts, [',']) + ']' + named + '}';
    }
    apply(setDelete, state.path, [value]);
    return integrity(value, text);
  }

  function encode(value) {
    try {
      return encodeIn(value, { nodes: 0, path: new CodecSet() }, 0);
    } catch (e) {
      if (e instanceof Unencodable) throw e;
      throw new Unencodable(e instanceof RangeError ? 'nested too deeply' : 'reading the value threw');
    }
  }

  // The wire text of an argument list: a JSON array (the recorder and the judge's replayer both
  // build it here, so equal arguments are equal text).
  function encodeArgs(args) {
    const parts = [];
    for (let i = 0; i < args.length; i++) apply(push, parts, [encode(args[i])]);
    return '[' + apply(join, parts, [',']) + ']';
  }

  function pairs(node) {
    if (!isArray(node.v)) throw new Malformed('not a list');
    return node.v;
  }
  function pair(item) {
    if (!isArray(item) || item.length !== 2) throw new Malformed('not a pair');
    return item;
  }
  // A parsed wire node (JSON.parse output) as a built-in value.
  function build(node, depth) {
    if (depth > MAX_DEPTH) throw new Malformed('nested deeper than ' + MAX_DEPTH);
    if (node === null || typeof node !== 'object') return node;
    if (isArray(node)) {
      const out = [];
      for (let i = 0; i < node.length; i++) out[i] = build(node[i], depth + 1);
      return out;
    }
    switch (node.$) {
      case 'u': return undefined;
      case 'n':
        if (!hasOwn(SPECIAL, node.v)) throw new Malformed('not a number');
        return SPECIAL[node.v];
      case 'b':
        if (typeof node.v !== 'string' || !apply(regexpTest, BIGINT, [node.v])) throw new Malformed('not a BigInt');
        return CodecBigInt(node.v);
      case 'h': {
        if (typeof node.n !== 'number' || !(node.n >= 0 && node.n <= 4294967295) || node.n % 1 !== 0) throw new Malformed('not a length');
        const out = new Array(node.n);
        const items = pairs(node);
        for (let i = 0; i < items.length; i++) {
          const [index, value] = pair(items[i]);
          if (typeof index !== 'number' || !(index >= 0 && index < node.n) || index % 1 !== 0) throw new Malformed('not an index');
          out[index] = build(value, depth + 1);
        }
        return out;
      }
      case 'm': {
        const out = new CodecMap();
        const items = pairs(node);
        for (let i = 0; i < items.length; i++) {
          const [key, value] = pair(items[i]);
          apply(mapSet, out, [build(key, depth + 1), build(value, depth + 1)]);
        }
        return out;
      }
      case 's': {
        const out = new CodecSet();
        const items = pairs(node);
        for (let i = 0; i < items.length; i++) apply(setAdd, out, [build(items[i], depth + 1)]);
        return out;
      }
      case 'd': {
        const time = build(node.v, depth + 1);
        if (typeof time !== 'number') throw new Malformed('not a time');
        return new CodecDate(time);
      }
      case 'A': {
        if (!isArray(node.v)) throw new Malformed('not a list');
        if (hasOwn(node, 'c') && node.c !== null && typeof node.c !== 'string') throw new Malformed('not a class name');
        const out = hasOwn(node, 'c') ? (node.c === null ? [] : new (classFor(node.c, true))()) : [];
        for (let i = 0; i < node.v.length; i++) out[i] = build(node.v[i], depth + 1);
        const extra = hasOwn(node, 'p') ? node.p : [];
        if (!isArray(extra)) throw new Malformed('not a list');
        for (let i = 0; i < extra.length; i++) {
          const [key, value] = pair(extra[i]);
          if (typeof key !== 'string') throw new Malformed('not a key');
          defineProperty(out, key, { value: build(value, depth + 1), writable: true, enumerable: true, configurable: true });
        }
        return out;
      }
      case 'z': {
        if (!hasOwn(INTEGRITY, node.k)) throw new Malformed('not an integrity level');
        const inner = build(node.v, depth + 1);
        if (inner === null || typeof inner !== 'object') throw new Malformed('not an object');
        return INTEGRITY[node.k](inner);
      }
      case 'o': {
        if (hasOwn(node, 'c') && node.c !== null && typeof node.c !== 'string') throw new Malformed('not a class name');
        const out = !hasOwn(node, 'c') ? {} : node.c === null ? objectCreate(null) : objectCreate(classFor(node.c, false).prototype);
        const items = pairs(node);
        for (let i = 0; i < items.length; i++) {
          const [key, value] = pair(items[i]);
          if (typeof key !== 'string') throw new Malformed('not a key');
          defineProperty(out, key, { value: build(value, depth + 1), writable: true, enumerable: true, configurable: true });
        }
        return out;
      }
      default: throw new Malformed('an unknown tag');
    }
  }

  // The value of one wire node already parsed; Malformed when it is not a wire value.
  function decodeNode(node) {
    try {
      return build(node, 0);
    } catch (e) {
      if (e instanceof Malformed) throw e;
      throw new Malformed(e instanceof RangeError ? 'nested too deeply' : 'not a wire value');
    }
  }

  // A JSON line's document, or Malformed.
  function parseLine(line) {
    try {
      return parse(line);
    } catch (e) {
      throw new Malformed('not JSON');
    }
  }

  return { encode, encodeArgs, decodeNode, parseLine, Unencodable, Malformed };
})();
