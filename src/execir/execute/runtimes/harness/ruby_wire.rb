# frozen_string_literal: true
# ExecIR's wire codec for Ruby values judged outside (see execir/execute/runtimes/ruby_split.py).
# One value is one JSON value: nil/true/false and Integers of at most 62 bits are JSON literals, an
# Array is a JSON array, everything else a one-key tagged object: {"I":"digits"} (wider Integer),
# {"f":"Float#to_s"} (exact: shortest round-trip text, NaN, Infinity, -0.0), {"s":"text"} (a valid
# UTF-8 or ASCII-only String without quotes, backslashes or control characters, so JSON strings are
# never escaped; "e" names any encoding but UTF-8), {"x":"hex","e":"encoding"} (any other String:
# its bytes), {"y":STRING} (Symbol), {"h":[[K,V],...],"d":DEFAULT} (Hash, insertion order),
# {"r":[BEGIN,END,EXCLUSIVE]}, {"set":[...]}, {"q":[N,D]} (Rational), {"c":[RE,IM]} (Complex),
# {"bd":"text"} (BigDecimal), {"date":[JD,START]} (Date), {"t":[SECONDS,OFFSET,UTC]} (Time: its
# exact Rational seconds since the epoch, its UTC offset, whether it is UTC), {"en":[...]} (an Enumerator of at most 100,000 items,
# materialized; decodes to an Enumerator over them), {"st":NAME,"m":[SYMBOL,...],"v":[...]} (a Struct;
# not in arguments), {"o":1} (a value of no class above: decodes to a fresh Object equal
# only to itself). The argument line of a call is a JSON array of its arguments' values, keyword
# arguments last as {"kw":[[SYMBOL,V],...]}. Encoding walks values with methods captured when this
# file loads (before any program), so a program's patches of core classes do not change the text;
# decoding builds core values only.
require "set"
require "bigdecimal"
require "date"

module ExecIRWire
  class Unencodable < StandardError; end
  class Malformed < StandardError; end

  MAX_DEPTH = 900
  SMALL = 1 << 62
  CLASS_OF = Kernel.instance_method(:class)
  KIND_OF = Kernel.instance_method(:kind_of?)
  APPEND = String.instance_method(:<<)
  INT_S = Integer.instance_method(:to_s)
  INT_LT = Integer.instance_method(:<)
  INT_GT = Integer.instance_method(:>)
  FLOAT_S = Float.instance_method(:to_s)
  ENCODING = String.instance_method(:encoding)
  VALID = String.instance_method(:valid_encoding?)
  ASCII_ONLY = String.instance_method(:ascii_only?)
  BINARY = String.instance_method(:b)
  UNPACK = String.instance_method(:unpack1)
  ENCODE_TO = String.instance_method(:encode)
  SYM_S = Symbol.instance_method(:to_s)
  ARRAY_EACH = Array.instance_method(:each)
  PUSH = Array.instance_method(:push)
  HASH_EACH = Hash.instance_method(:each_pair)
  HASH_SIZE = Hash.instance_method(:size)
  HASH_DEFAULT = Hash.instance_method(:default)
  HASH_PROC = Hash.instance_method(:default_proc)
  HASH_IDENTITY = Hash.instance_method(:compare_by_identity?)
  RANGE_BEGIN = Range.instance_method(:begin)
  RANGE_END = Range.instance_method(:end)
  RANGE_EXCLUDE = Range.instance_method(:exclude_end?)
  IVAR = Kernel.instance_method(:instance_variable_get)
  NUMERATOR = Rational.instance_method(:numerator)
  DENOMINATOR = Rational.instance_method(:denominator)
  REAL = Complex.instance_method(:real)
  IMAGINARY = Complex.instance_method(:imaginary)
  BIG_S = defined?(BigDecimal) ? BigDecimal.instance_method(:to_s) : nil
  DATE_JD = Date.instance_method(:jd)
  DATE_START = Date.instance_method(:start)
  TIME_R = Time.instance_method(:to_r)
  TIME_OFFSET = Time.instance_method(:utc_offset)
  TIME_UTC = Time.instance_method(:utc?)
  NAME = Module.instance_method(:name)
  STRUCT_MEMBERS = Struct.instance_method(:members)
  STRUCT_VALUES = Struct.instance_method(:to_a)
  ENUM_FIRST = Enumerable.instance_method(:first)
  MAX_ITEMS = 100_000
  CONSTANT = /\A[A-Z]\w*(?:::[A-Z]\w*)*\z/.freeze
  UTF8 = Encoding::UTF_8
  RE_MATCH = Regexp.instance_method(:match?)
  ESCAPED = /["\\\x00-\x1f]/.freeze

  # The JSON text of ``value``; ``strict``: a value of no class above (or a cycle, a Hash with a
  # default proc, a subclass of a core class) raises Unencodable instead of encoding as {"o":1}.
  def self.encode(value, strict)
    buf = +""
    put(buf, value, strict, {}.compare_by_identity, 0)
    buf
  end

  # The argument line of one call.
  def self.encode_call(args, kw, strict)
    buf = +"["
    path = {}.compare_by_identity
    first = true
    ARRAY_EACH.bind_call(args) do |arg|
      APPEND.bind_call(buf, ",") unless first
      first = false
      put(buf, arg, strict, path, 1)
    end
    unless HASH_SIZE.bind_call(kw).zero?
      APPEND.bind_call(buf, ",") unless first
      APPEND.bind_call(buf, '{"kw":')
      put_pairs(buf, kw, strict, path, 1)
      APPEND.bind_call(buf, "}")
    end
    APPEND.bind_call(buf, "]")
  end

  def self.opaque(buf, strict, why)
    raise Unencodable, why if strict

    APPEND.bind_call(buf, '{"o":1}')
  end

  def self.put(buf, value, strict, path, depth)
    klass = CLASS_OF.bind_call(value)
    if klass.equal?(NilClass) then APPEND.bind_call(buf, "null")
    elsif klass.equal?(TrueClass) then APPEND.bind_call(buf, "true")
    elsif klass.equal?(FalseClass) then APPEND.bind_call(buf, "false")
    elsif klass.equal?(Integer) then put_integer(buf, value)
    elsif klass.equal?(Float) then tagged(buf, "f") { put_text(buf, FLOAT_S.bind_call(value)) }
    elsif klass.equal?(Symbol) then tagged(buf, "y") { put_string(buf, SYM_S.bind_call(value)) }
    elsif klass.equal?(Rational) then tagged(buf, "q") { put_list(buf, [NUMERATOR.bind_call(value), DENOMINATOR.bind_call(value)], strict, path, depth) }
    elsif klass.equal?(Complex) then tagged(buf, "c") { put_list(buf, [REAL.bind_call(value), IMAGINARY.bind_call(value)], strict, path, depth) }
    elsif BIG_S && klass.equal?(BigDecimal) then tagged(buf, "bd") { put_text(buf, BIG_S.bind_call(value)) }
    elsif klass.equal?(Date) then tagged(buf, "date") { put_list(buf, [DATE_JD.bind_call(value), DATE_START.bind_call(value)], strict, path, depth) }
    elsif klass.equal?(Time)
      tagged(buf, "t") { put_list(buf, [TIME_R.bind_call(value), TIME_OFFSET.bind_call(value), TIME_UTC.bind_call(value)], strict, path, depth) }
    elsif depth > MAX_DEPTH || path.key?(value) then opaque(buf, strict, "a value nested too deep or containing itself")
    elsif KIND_OF.bind_call(value, String) then subclass(buf, strict, klass, String) { put_string(buf, value) }
    else
      path[value] = true
      put_container(buf, value, klass, strict, path, depth)
      path.delete(value)
    end
  end

  def self.put_container(buf, value, klass, strict, path, depth)
    if KIND_OF.bind_call(value, Array)
      subclass(buf, strict, klass, Array) { put_list(buf, value, strict, path, depth) }
    elsif KIND_OF.bind_call(value, Hash)
      subclass(buf, strict, klass, Hash) { put_hash(buf, value, strict, path, depth) }
    elsif KIND_OF.bind_call(value, Range)
      subclass(buf, strict, klass, Range) do
        tagged(buf, "r") { put_list(buf, [RANGE_BEGIN.bind_call(value), RANGE_END.bind_call(value), RANGE_EXCLUDE.bind_call(value)], strict, path, depth) }
      end
    elsif defined?(Set) && KIND_OF.bind_call(value, Set)
      keys = []
      HASH_EACH.bind_call(IVAR.bind_call(value, :@hash)) { |key, _| PUSH.bind_call(keys, key) }
      subclass(buf, strict, klass, Set) { tagged(buf, "set") { put_list(buf, keys, strict, path, depth) } }
    elsif !strict && KIND_OF.bind_call(value, Struct)
      put_struct(buf, value, klass, path, depth)
    elsif !strict && KIND_OF.bind_call(value, Enumerator)
      items = ENUM_FIRST.bind_call(value, MAX_ITEMS + 1)
      return opaque(buf, strict, "a long enumerator") if items.size > MAX_ITEMS

      tagged(buf, "en") { put_list(buf, items, strict, path, depth) }
    else
      opaque(buf, strict, "a #{NAME.bind_call(klass) || 'anonymous class'}")
    end
  end

  # A Struct: its class's name (the judge uses the reference's class of that name when it has the
  # same members) and its members' names and values.
  def self.put_struct(buf, value, klass, path, depth)
    name = NAME.bind_call(klass)
    APPEND.bind_call(buf, '{"st":')
    put(buf, name && RE_MATCH.bind_call(CONSTANT, name) ? name : nil, false, path, depth + 1)
    APPEND.bind_call(buf, ',"m":')
    put_list(buf, STRUCT_MEMBERS.bind_call(value), false, path, depth)
    APPEND.bind_call(buf, ',"v":')
    put_list(buf, STRUCT_VALUES.bind_call(value), false, path, depth)
    APPEND.bind_call(buf, "}")
  end

  def self.subclass(buf, strict, klass, base)
    raise Unencodable, "a subclass of #{base}" if strict && !klass.equal?(base)

    yield
  end

  def self.tagged(buf, tag)
    APPEND.bind_call(buf, "{\"#{tag}\":")
    yield
    APPEND.bind_call(buf, "}")
  end

  def self.put_integer(buf, value)
    if INT_LT.bind_call(value, SMALL) && INT_GT.bind_call(value, -SMALL)
      APPEND.bind_call(buf, INT_S.bind_call(value))
    else
      tagged(buf, "I") { put_text(buf, INT_S.bind_call(value)) }
    end
  end

  def self.put_text(buf, ascii)
    APPEND.bind_call(buf, '"')
    APPEND.bind_call(buf, ascii)
    APPEND.bind_call(buf, '"')
  end

  def self.put_string(buf, value)
    encoding = ENCODING.bind_call(value)
    if VALID.bind_call(value) && (encoding.equal?(UTF8) || ASCII_ONLY.bind_call(value)) && !RE_MATCH.bind_call(ESCAPED, value)
      APPEND.bind_call(buf, '{"s":"')
      APPEND.bind_call(buf, encoding.equal?(UTF8) ? value : ENCODE_TO.bind_call(value, UTF8))
      APPEND.bind_call(buf, encoding.equal?(UTF8) ? '"}' : "\",\"e\":\"#{encoding.name}\"}")
    else
      APPEND.bind_call(buf, "{\"x\":\"#{UNPACK.bind_call(BINARY.bind_call(value), 'H*')}\",\"e\":\"#{encoding.name}\"}")
    end
  end

  def self.put_list(buf, items, strict, path, depth)
    APPEND.bind_call(buf, "[")
    first = true
    ARRAY_EACH.bind_call(items) do |item|
      APPEND.bind_call(buf, ",") unless first
      first = false
      put(buf, item, strict, path, depth + 1)
    end
    APPEND.bind_call(buf, "]")
  end

  def self.put_pairs(buf, hash, strict, path, depth)
    APPEND.bind_call(buf, "[")
    first = true
    HASH_EACH.bind_call(hash) do |key, item|
      APPEND.bind_call(buf, first ? "[" : ",[")
      first = false
      put(buf, key, strict, path, depth + 1)
      APPEND.bind_call(buf, ",")
      put(buf, item, strict, path, depth + 1)
      APPEND.bind_call(buf, "]")
    end
    APPEND.bind_call(buf, "]")
  end

  def self.put_hash(buf, value, strict, path, depth)
    raise Unencodable, "a Hash with a default proc or compared by identity" if strict && (HASH_PROC.bind_call(value) || HASH_IDENTITY.bind_call(value))

    default = HASH_PROC.bind_call(value) ? nil : HASH_DEFAULT.bind_call(value)
    APPEND.bind_call(buf, '{"h":')
    put_pairs(buf, value, strict, path, depth)
    unless default.nil?
      APPEND.bind_call(buf, ',"d":')
      put(buf, default, strict, path, depth + 1)
    end
    APPEND.bind_call(buf, "}")
  end

  # ---- decoding: JSON text -> plain JSON values -> core Ruby values (trusted code only builds them)
  class Parser
    LITERAL = { "null" => nil, "true" => true, "false" => false }.freeze
    WORD = /\G(?:null|true|false)/n.freeze
    NUMBER = /\G-?(?:0|[1-9][0-9]*)(?![.eE0-9])/n.freeze
    STRING = /\G"([^"\\\x00-\x1f]*)"/n.freeze

    def initialize(text)
      @text = text.b
      @pos = 0
    end

    def document
      value = read(0)
      raise Malformed, "trailing text" unless @pos == @text.bytesize

      value
    end

    def read(depth)
      raise Malformed, "too deep" if depth > MAX_DEPTH + 8

      case @text.getbyte(@pos)
      when 0x5b then list(depth)
      when 0x7b then object(depth)
      when 0x22 then string
      else scalar
      end
    end

    def take(pattern)
      found = pattern.match(@text, @pos)
      raise Malformed, "unexpected text at #{@pos}" unless found

      @pos = found.end(0)
      found
    end

    def scalar
      word = WORD.match(@text, @pos)
      return LITERAL.fetch(take(WORD)[0]) if word

      Integer(take(NUMBER)[0], 10)
    end

    def string
      text = take(STRING)[1].force_encoding(UTF8)
      raise Malformed, "invalid UTF-8" unless text.valid_encoding?

      text
    end

    def list(depth)
      @pos += 1
      items = []
      if @text.getbyte(@pos) == 0x5d
        @pos += 1
        return items
      end
      loop do
        items << read(depth + 1)
        byte = @text.getbyte(@pos)
        @pos += 1
        return items if byte == 0x5d
        raise Malformed, "expected , or ]" unless byte == 0x2c
      end
    end

    def object(depth)
      @pos += 1
      table = {}
      if @text.getbyte(@pos) == 0x7d
        @pos += 1
        return table
      end
      loop do
        raise Malformed, "expected a key" unless @text.getbyte(@pos) == 0x22

        key = string
        raise Malformed, "expected :" unless @text.getbyte(@pos) == 0x3a

        @pos += 1
        raise Malformed, "duplicate key" if table.key?(key)

        table[key] = read(depth + 1)
        byte = @text.getbyte(@pos)
        @pos += 1
        return table if byte == 0x7d
        raise Malformed, "expected , or }" unless byte == 0x2c
      end
    end
  end

  FLOAT_TEXT = /\A-?[0-9]+\.[0-9]+(?:e[+-][0-9]+)?\z/.freeze
  DECIMAL_TEXT = /\A-?(?:[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?|Infinity|NaN)\z/i.freeze
  INTEGER_TEXT = /\A-?[0-9]+\z/.freeze
  SPECIAL = { "NaN" => Float::NAN, "Infinity" => Float::INFINITY, "-Infinity" => -Float::INFINITY }.freeze
  TAGS = { "I" => [], "f" => [], "s" => ["e"], "x" => ["e"], "y" => [], "h" => ["d"], "r" => [], "set" => [], "q" => [], "c" => [], "bd" => [], "date" => [], "t" => [], "o" => [], "en" => [], "st" => %w[m v] }.freeze

  def self.parse(text)
    Parser.new(text).document
  rescue Malformed
    raise
  rescue StandardError, SystemStackError => e
    raise Malformed, e.class.name
  end

  # The value of one JSON value of the wire (already parsed).
  def self.build(tree)
    case tree
    when nil, true, false, Integer then tree
    when Array then tree.map { |item| build(item) }
    when Hash then build_tagged(tree)
    else raise Malformed, "a bare JSON string or number"
    end
  end

  def self.build_tagged(tree)
    tag = tree.keys.find { |key| TAGS.key?(key) }
    raise Malformed, "an untagged object" unless tag && (tree.keys - [tag] - TAGS[tag]).empty?

    body = tree[tag]
    case tag
    when "I" then Integer(text_of(body, INTEGER_TEXT), 10)
    when "f" then SPECIAL.fetch(body) { Float(text_of(body, FLOAT_TEXT)) }
    when "s", "x" then build_string(tag, body, tree["e"])
    when "y" then string_of(build(body)).to_sym
    when "h" then build_hash(body, tree)
    when "r" then Range.new(*triple(body))
    when "set" then Set.new(list_of(body).map { |item| build(item) })
    when "q" then Rational(*pair(body).map { |item| integer_of(item) })
    when "c" then Complex(*pair(body).map { |item| real_of(build(item)) })
    when "bd" then BigDecimal(text_of(body, DECIMAL_TEXT))
    when "date" then Date.jd(*pair(body).map { |item| real_of(build(item)) })
    when "t" then build_time(list_of(body).map { |item| build(item) })
    when "en" then list_of(body).map { |item| build(item) }.each
    when "st" then build_struct(build(body), list_of(tree["m"]).map { |item| build(item) }, list_of(tree["v"]).map { |item| build(item) })
    else Object.new
    end
  rescue Malformed
    raise
  rescue StandardError => e
    raise Malformed, "#{tag}: #{e.class}"
  end

  def self.build_time(parts)
    seconds, offset, utc = parts
    raise Malformed, "not a time" unless parts.size == 3 && (seconds.is_a?(Rational) || seconds.is_a?(Integer)) && offset.is_a?(Integer) && [true, false].include?(utc)

    time = Time.at(seconds, in: offset)
    utc ? time.utc : time
  end

  def self.build_string(tag, body, name)
    raise Malformed, "a string without its encoding" if tag == "x" && !name.is_a?(String)

    encoding = name.nil? ? UTF8 : Encoding.find(string_of(name))
    if tag == "s"
      text = string_of(body).dup
      raise Malformed, "a non-ASCII string in #{encoding}" unless encoding.equal?(UTF8) || text.ascii_only?

      return text.force_encoding(encoding)
    end
    raise Malformed, "bad hex" if string_of(body).bytesize.odd? || body.match?(/[^0-9a-f]/)

    [body].pack("H*").force_encoding(encoding)
  end

  # A Struct of the class named ``name`` here (the reference's or Ruby's) when it has these members,
  # else of a new anonymous Struct class with them.
  def self.build_struct(name, members, values)
    raise Malformed, "a struct's members" unless members.size == values.size && !members.empty? && members.all? { |m| m.is_a?(Symbol) }

    klass = name.is_a?(String) && CONSTANT.match?(name) ? (Object.const_get(name) rescue nil) : nil
    if klass.is_a?(Class) && klass < Struct && klass.members == members
      begin
        found = klass.new
        members.zip(values) { |member, item| found[member] = item }
        return found
      rescue StandardError
        nil
      end
    end
    Struct.new(*members).new(*values)
  end

  def self.build_hash(body, tree)
    table = {}
    list_of(body).each do |entry|
      key, item = pair(entry)
      table[build(key)] = build(item)
    end
    table.default = build(tree["d"]) if tree.key?("d")
    table
  end

  def self.text_of(body, pattern)
    raise Malformed, "bad text" unless body.is_a?(String) && pattern.match?(body)

    body
  end

  def self.string_of(value)
    raise Malformed, "expected a string" unless value.is_a?(String)

    value
  end

  def self.list_of(value)
    raise Malformed, "expected a list" unless value.is_a?(Array)

    value
  end

  def self.pair(value)
    raise Malformed, "expected a pair" unless value.is_a?(Array) && value.size == 2

    value
  end

  def self.triple(value)
    raise Malformed, "expected a range" unless value.is_a?(Array) && value.size == 3 && [true, false].include?(value[2])

    [build(value[0]), build(value[1]), value[2]]
  end

  def self.integer_of(value)
    found = build(value)
    raise Malformed, "expected an integer" unless found.is_a?(Integer)

    found
  end

  def self.real_of(value)
    raise Malformed, "expected a real number" unless value.is_a?(Integer) || value.is_a?(Float) || value.is_a?(Rational)

    value
  end

  # [positional arguments, keyword arguments] of one argument line.
  def self.decode_call(text)
    items = parse(text)
    raise Malformed, "an argument line is a list" unless items.is_a?(Array)

    last = items.last
    kw = {}
    if last.is_a?(Hash) && last.keys == ["kw"]
      items = items[0...-1]
      list_of(last["kw"]).each do |entry|
        key, item = pair(entry)
        name = build(key)
        raise Malformed, "a keyword that is not a Symbol" unless name.is_a?(Symbol)

        kw[name] = build(item)
      end
    end
    [items.map { |item| build(item) }, kw]
  end
end
