package parca

import "strings"

// goShape starts a Go generic shape section in a function name.
const goShape = "[go.shape."

// unknownFunction names a line whose function has no name.
const unknownFunction = "unknown"

// frameName returns a function name as Pyroscope shows it: Go generic shape
// sections are removed, so "slices.Sort[go.shape.[]int,go.shape.int]" is
// "slices.Sort" and "pkg.Map[go.shape.int].func1" is "pkg.Map.func1".
func frameName(name string) string {
	if name == "" {
		return unknownFunction
	}
	i := strings.Index(name, goShape)
	if i < 0 {
		return name
	}
	var b strings.Builder
	b.Grow(len(name))
	for i >= 0 {
		b.WriteString(name[:i])
		end := closingBracket(name, i)
		if end < 0 {
			return b.String()
		}
		name = name[end+1:]
		i = strings.Index(name, goShape)
	}
	b.WriteString(name)
	return b.String()
}

// closingBracket returns the index of the ']' that closes the '[' at open,
// or -1 when the brackets are unbalanced.
func closingBracket(s string, open int) int {
	depth := 0
	for j := open; j < len(s); j++ {
		switch s[j] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}
