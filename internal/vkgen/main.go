// Command vkgen generates the Go declarations of the Vulkan types, constants and commands
// that internal/vk uses, from the C headers it vendors: struct types laid out as C lays
// them out, constants, and per command a method that calls its entry point. It emits only
// the names listed in its names file (one a line; # starts a comment) and the types those
// need.
//
// Usage (go:generate in internal/vk):
//
//	vkgen -names vkapi.txt -o vkapi_gen.go header.h...
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
	flag.Parse()
	src, err := run(*names, flag.Args())
	if err == nil {
		err = os.WriteFile(*out, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "vkgen:", err)
		os.Exit(1)
	}
}

// run parses the headers and returns the Go file of the names in namesFile.
func run(namesFile string, headers []string) ([]byte, error) {
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
	g := &generator{r: r, source: strings.Join(headers, ", "),
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
	return g.generate()
}
