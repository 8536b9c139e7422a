// Command bareserve is the baseline of scripts/serve-bench.sh: a bare
// net/http server that answers every request with the bytes of one file,
// as a handler that does nothing else would.
package main

import (
	"flag"
	"log"
	"net/http"
	"os"
	"strconv"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:5098", "address to listen on")
	body := flag.String("body", "", "file whose bytes every answer carries")
	ctype := flag.String("type", "application/json; charset=utf-8", "Content-Type of the answers")
	flag.Parse()
	b, err := os.ReadFile(*body)
	if err != nil {
		log.Fatal(err)
	}
	n := strconv.Itoa(len(b))
	http.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", *ctype)
		w.Header().Set("Content-Length", n)
		_, _ = w.Write(b)
	})
	log.Fatal(http.ListenAndServe(*addr, nil))
}
