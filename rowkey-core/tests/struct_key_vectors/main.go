// Command struct_key_vectors writes test vectors for Bigtable's structured row keys
// (`Type.Struct` in google/bigtable/admin/v2/types.proto) to standard output, one per line:
//
//	<struct encoding> TAB <field types> TAB <values> TAB <key as hex, or ERR:<reason>>
//
// struct encoding: "singleton", "ordered" (OrderedCodeBytes) or "delimited:<delimiter hex>".
// field types (comma-separated, "-" for none): i64be, i64oc (Int64 BigEndianBytes /
// OrderedCodeBytes), str (String Utf8Bytes), bytes (Bytes Raw), tsbe, tsoc (Timestamp as unix
// micros over that Int64 encoding).
// values (comma-separated, "-" for none): decimal for Int64/Timestamp, "x" + hex for String/Bytes.
//
// Where the rules come from:
//
//   - Int64 OrderedCodeBytes: Google's own code, github.com/google/orderedcode (Append of an
//     int64). This is the oracle for that rule.
//   - Int64 BigEndianBytes: encoding/binary's BigEndian.PutUint64 (8-byte two's complement, as
//     the reference says).
//   - String Utf8Bytes, Bytes Raw: the value's bytes as-is.
//   - The Struct encodings (Singleton, DelimitedBytes, OrderedCodeBytes joining, null escaping,
//     empty and trailing empty fields): NO Google Go code implements them (cloud.google.com/go/
//     bigtable v1.58.0 only builds the Type protos; its type.go has no encoder). They are
//     implemented here ONLY from the API reference text of types.proto, and that text's own
//     examples (documented.tsv beside this file) are checked here and by the Rust test.
//
// The generator is seeded, so the output is the same on every run.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand"
	"os"
	"strconv"
	"strings"

	"github.com/google/orderedcode"
)

type value struct {
	isInt bool
	i     int64
	b     []byte
}

// encodeField is a field type's own encoding.
func encodeField(ty string, v value) []byte {
	switch ty {
	case "i64oc", "tsoc":
		out, err := orderedcode.Append(nil, v.i)
		if err != nil {
			panic(err)
		}
		return out
	case "i64be", "tsbe":
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], uint64(v.i))
		return b[:]
	case "str", "bytes":
		return append([]byte{}, v.b...)
	}
	panic("unknown type " + ty)
}

// encodeStruct implements the Struct encodings from the types.proto reference text.
// It returns "" and a reason where the reference says the value cannot be encoded.
func encodeStruct(enc string, types []string, vals []value) ([]byte, string) {
	fields := make([][]byte, len(types))
	for i, ty := range types {
		fields[i] = encodeField(ty, vals[i])
	}
	switch {
	case enc == "singleton":
		// "Uses the encoding of `fields[0].type` as-is. Only valid if `fields.size == 1`."
		return fields[0], ""
	case strings.HasPrefix(enc, "delimited:"):
		delim, err := hex.DecodeString(strings.TrimPrefix(enc, "delimited:"))
		if err != nil {
			panic(err)
		}
		// "A struct with no fields defined is encoded as a single `delimiter`."
		if len(fields) == 0 {
			return delim, ""
		}
		// Distinct mode: "Encoded field values must not contain `delimiter[0]`."
		for _, f := range fields {
			if bytes.IndexByte(f, delim[0]) >= 0 {
				return nil, "contains-delimiter"
			}
		}
		// "Fields are encoded independently and concatenated with a configurable
		// `delimiter` in between."
		return bytes.Join(fields, delim), ""
	case enc == "ordered":
		// "If *every* field encodes to "", or if the STRUCT has no fields defined, then
		// the STRUCT is encoded as the fixed byte pair {0x00, 0x00}."
		last := -1
		for i, f := range fields {
			if len(f) > 0 {
				last = i
			}
		}
		if last < 0 {
			return []byte{0, 0}, ""
		}
		// "Otherwise, the STRUCT only encodes until the last non-empty field, omitting any
		// trailing empty fields. Any empty fields that aren't omitted are replaced with the
		// fixed byte pair {0x00, 0x00}." "Any null (0x00) byte in an encoded field is
		// replaced by the fixed byte pair {0x00, 0xFF}." "... concatenated with the fixed
		// byte pair {0x00, 0x01} in between."
		var out []byte
		for i := 0; i <= last; i++ {
			if i > 0 {
				out = append(out, 0x00, 0x01)
			}
			if len(fields[i]) == 0 {
				out = append(out, 0x00, 0x00)
				continue
			}
			for _, c := range fields[i] {
				if c == 0x00 {
					out = append(out, 0x00, 0xFF)
				} else {
					out = append(out, c)
				}
			}
		}
		return out, ""
	}
	panic("unknown encoding " + enc)
}

var edgeInts = []int64{
	0, 1, -1, 63, 64, -64, -65, 127, 128, 255, 256, -256, -257, 0x10e, -0x10f, 8191, 8192,
	1 << 16, 1 << 24, 1<<31 - 1, -1 << 31, 1 << 32, 1<<48 - 1, 1 << 55, 1<<56 - 1, 1 << 56,
	1<<62 - 1, 1 << 62, math.MaxInt64, math.MaxInt64 - 1, math.MinInt64, math.MinInt64 + 1,
	-(1 << 56), -(1 << 62), 0x0100, 0x010000, 0x7f00ff00ff00ff00,
}

func randInt(r *rand.Rand) int64 {
	switch r.Intn(5) {
	case 0:
		return edgeInts[r.Intn(len(edgeInts))]
	case 1:
		return int64(r.Intn(512) - 256)
	case 2:
		// a random magnitude, so every encoded length is hit
		x := int64(r.Uint64() >> uint(r.Intn(64)))
		if r.Intn(2) == 0 {
			x = ^x
		}
		return x
	case 3:
		// values whose encodings hold 0x00 and 0xFF bytes
		b := make([]byte, 8)
		for i := range b {
			b[i] = []byte{0x00, 0x01, 0xFF, 0xFE, 0x80}[r.Intn(5)]
		}
		return int64(binary.BigEndian.Uint64(b)) >> uint(r.Intn(64))
	default:
		return int64(r.Uint64())
	}
}

var pieces = [][]byte{
	{}, {0x00}, {0x00, 0x00}, {0x01}, {0x00, 0x01}, {0x00, 0xFF}, {0xFF}, {0xFF, 0xFF},
	{0xFF, 0x00}, {0x23}, {0x2F}, []byte("a"), []byte("ab"), []byte("A"), {0x7F}, {0x80},
}

var runes = []rune{0, 1, 'a', 'b', 'z', '#', '/', 0x7F, 0x80, 0xFF, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF, 'é', '€'}

func randBytes(r *rand.Rand) []byte {
	n := r.Intn(7)
	if r.Intn(6) == 0 {
		n = 0
	}
	var out []byte
	for i := 0; i < n; i++ {
		if r.Intn(2) == 0 {
			out = append(out, pieces[r.Intn(len(pieces))]...)
		} else {
			out = append(out, byte(r.Intn(256)))
		}
	}
	return out
}

func randString(r *rand.Rand) []byte {
	n := r.Intn(6)
	if r.Intn(6) == 0 {
		n = 0
	}
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if r.Intn(2) == 0 {
			sb.WriteRune(runes[r.Intn(len(runes))])
		} else {
			sb.WriteRune(rune(r.Intn(0x80)))
		}
	}
	return []byte(sb.String())
}

func randValue(r *rand.Rand, ty string) value {
	switch ty {
	case "i64oc", "i64be", "tsoc", "tsbe":
		return value{isInt: true, i: randInt(r)}
	case "str":
		return value{b: randString(r)}
	default:
		return value{b: randBytes(r)}
	}
}

var allTypes = []string{"i64oc", "i64be", "str", "bytes", "tsoc", "tsbe"}

func formatLine(enc string, types []string, vals []value, key []byte, reason string) string {
	ts, vs := "-", "-"
	if len(types) > 0 {
		ts = strings.Join(types, ",")
		parts := make([]string, len(vals))
		for i, v := range vals {
			if v.isInt {
				parts[i] = strconv.FormatInt(v.i, 10)
			} else {
				parts[i] = "x" + hex.EncodeToString(v.b)
			}
		}
		vs = strings.Join(parts, ",")
	}
	k := hex.EncodeToString(key)
	if reason != "" {
		k = "ERR:" + reason
	}
	return enc + "\t" + ts + "\t" + vs + "\t" + k
}

func parseList(s string) []string {
	if s == "-" {
		return nil
	}
	return strings.Split(s, ",")
}

// checkDocumented checks this implementation against the reference's own examples.
func checkDocumented() {
	data, err := os.ReadFile("documented.tsv")
	if err != nil {
		panic(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		types, raw := parseList(cols[1]), parseList(cols[2])
		vals := make([]value, len(types))
		for i, t := range types {
			if strings.HasPrefix(t, "i64") || strings.HasPrefix(t, "ts") {
				x, _ := strconv.ParseInt(raw[i], 10, 64)
				vals[i] = value{isInt: true, i: x}
			} else {
				vals[i].b, _ = hex.DecodeString(strings.TrimPrefix(raw[i], "x"))
			}
		}
		got, _ := encodeStruct(cols[0], types, vals)
		if hex.EncodeToString(got) != cols[3] {
			fmt.Fprintf(os.Stderr, "documented example %q: got %x\n", line, got)
			os.Exit(1)
		}
	}
}

func main() {
	checkDocumented()
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	emit := func(enc string, types []string, vals []value) {
		key, reason := encodeStruct(enc, types, vals)
		fmt.Fprintln(w, formatLine(enc, types, vals, key, reason))
	}
	ints := func(xs ...int64) []value {
		out := make([]value, len(xs))
		for i, x := range xs {
			out[i] = value{isInt: true, i: x}
		}
		return out
	}
	bs := func(xs ...string) []value {
		out := make([]value, len(xs))
		for i, x := range xs {
			out[i] = value{b: []byte(x)}
		}
		return out
	}

	// Edge cases: every edge int64 and its neighbours, alone and in each struct encoding.
	for _, x := range edgeInts {
		for _, d := range []int64{-1, 0, 1} {
			y := x + d // wraps at the ends, which is fine: still an int64
			for _, ty := range []string{"i64oc", "i64be", "tsoc", "tsbe"} {
				emit("singleton", []string{ty}, ints(y))
				emit("ordered", []string{ty}, ints(y))
				emit("ordered", []string{ty, ty}, ints(y, x))
				emit("delimited:23", []string{ty}, ints(y))
				emit("delimited:00", []string{ty, ty}, ints(y, x))
			}
		}
	}
	// Edge cases: empty fields, trailing empties, 00/FF runs.
	strs := []string{"", "\x00", "\x00\x00", "\x00\x01", "\x00\xff", "\xff", "\xff\xff", "\xff\x00",
		"\x01", "A", "AB", "#", "##", "a#b", "\x00\x00\x00\xff\xff\xff"}
	for _, a := range strs {
		emit("singleton", []string{"bytes"}, bs(a))
		emit("ordered", []string{"bytes"}, bs(a))
		for _, b := range strs {
			emit("ordered", []string{"bytes", "bytes"}, bs(a, b))
			emit("ordered", []string{"bytes", "bytes", "bytes"}, bs(a, "", b))
			emit("ordered", []string{"bytes", "bytes", "bytes"}, bs(a, b, ""))
			emit("delimited:23", []string{"bytes", "bytes"}, bs(a, b))
			emit("delimited:2323", []string{"bytes", "bytes", "bytes"}, bs(a, "", b))
			emit("delimited:ff00", []string{"bytes", "bytes"}, bs(a, b))
		}
	}
	emit("ordered", nil, nil)
	emit("delimited:23", nil, nil)
	emit("delimited:00ff01", nil, nil)
	emit("ordered", []string{"str", "str", "str", "str"}, bs("", "", "", ""))
	emit("ordered", []string{"i64oc", "str", "str"}, []value{{isInt: true, i: 256}, {}, {}})

	// Random keys: at least 5,000 encoded keys per struct encoding (about a quarter of the
	// delimited ones are refused, a field containing the delimiter's first byte: more of them).
	r := rand.New(rand.NewSource(28))
	delims := []string{"23", "00", "ff", "2f2f", "7c", "0001", "ff00"}
	for _, enc := range []string{"singleton", "ordered", "delimited"} {
		count := 6000
		if enc == "delimited" {
			count = 8000
		}
		for n := 0; n < count; n++ {
			nf := 1
			if enc != "singleton" {
				nf = r.Intn(5) // 0..4 fields
			}
			types := make([]string, nf)
			vals := make([]value, nf)
			for i := range types {
				types[i] = allTypes[r.Intn(len(allTypes))]
				vals[i] = randValue(r, types[i])
			}
			e := enc
			if enc == "delimited" {
				e = "delimited:" + delims[r.Intn(len(delims))]
			}
			emit(e, types, vals)
		}
	}
}
