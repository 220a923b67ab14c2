package main

import (
	"fmt"
	"os"

	"github.com/goamp/goamp/internal/vecgen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen OUTPUT")
		os.Exit(2)
	}
	src, err := vecgen.Source()
	if err == nil {
		err = os.WriteFile(os.Args[1], src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "goamp/vecgen:", err)
		os.Exit(1)
	}
}
