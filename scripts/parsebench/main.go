// Command parsebench times billing.ParseFile alone (no store) on a file and
// prints rows, daily lines and totals, for the import benchmark.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/costpilot/costpilot/backend/billing"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: parsebench FILE")
	}
	t0 := time.Now()
	res, err := billing.ParseFile(context.Background(), os.Args[1], billing.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer res.Close()
	var lines int64
	for _, b := range res.Batches {
		lines += b.Facts.N
	}
	fmt.Printf("parse: %d rows -> %d daily lines in %v\n", res.Rows, lines, time.Since(t0).Round(time.Millisecond))
	for p, c := range res.Totals {
		for cur, t := range c {
			fmt.Printf("  %s %s billed %s effective %s list %s\n", p, cur, t.Billed, t.Effective, t.List)
		}
	}
}
