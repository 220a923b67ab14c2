// Command vkgen generates the Go declarations of the Vulkan types, constants and commands
// that internal/vk uses, from the C headers it vendors: struct types laid out as C lays
// them out, constants, and per command a method that calls its entry point. It emits only
// the names listed in its names file (one a line; # starts a comment) and the types those
// need.
//
// Usage (go:generate in internal/vk):
//
//	vkgen -names vkapi.txt -o vkapi_gen.go [-test types_test.go] [-c layout.c] header.h...
//
// With -test it also writes a test file that lists the generated structs by their C
// names (generatedStructs), and with -c a C program that prints the C layout of each
// (its size, alignment and member offsets), which internal/vk's tests compare with Go's.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	names := flag.String("names", "", "file of the names to generate")
	out := flag.String("o", "", "output file")
	testOut := flag.String("test", "", "the test file of the generated structs, if any")
	cOut := flag.String("c", "", "the C program that prints their layout, if any")
	flag.Parse()
	g, err := load(*names, flag.Args())
	var src []byte
	if err == nil {
		src, err = g.generate()
	}
	if err == nil {
		err = os.WriteFile(*out, src, 0o644)
	}
	if err == nil && *testOut != "" {
		var list []byte
		if list, err = g.structList(); err == nil {
			err = os.WriteFile(*testOut, list, 0o644)
		}
	}
	if err == nil && *cOut != "" {
		err = os.WriteFile(*cOut, g.layoutProgram(), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "vkgen:", err)
		os.Exit(1)
	}
}

// load parses the headers and adds the names in namesFile to a generator.
func load(namesFile string, headers []string) (*generator, error) {
	r := newRegistry()
	for _, h := range headers {
		data, err := os.ReadFile(h)
		if err != nil {
			return nil, err
		}
		if err := r.parse(bytes.NewReader(data)); err != nil {
			return nil, fmt.Errorf("%s: %v", h, err)
		}
	}
	list, err := os.ReadFile(namesFile)
	if err != nil {
		return nil, err
	}
	g := &generator{r: r, source: strings.Join(headers, ", "), headers: headers,
		structs: map[string]bool{}, handles: map[string]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(list))
	for sc.Scan() {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		for _, name := range strings.Fields(line) {
			if err := g.add(name); err != nil {
				return nil, err
			}
		}
	}
	return g, nil
}
