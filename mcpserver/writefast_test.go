package mcpserver

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// freshAnswer is writeFast's answer made anew, the reference writeFast
// and writeKept are held to.
func freshAnswer(id []byte, parts [][]byte) []byte {
	b := []byte(answerStart)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	for _, p := range parts {
		b = append(b, p...)
	}
	return append(b, '}')
}

// TestWriteFastIsFresh: answers written by writeFast, through its pool,
// one after another with ids of one length, are each the answer made
// anew.
func TestWriteFastIsFresh(t *testing.T) {
	page := []byte(strings.Repeat(`{"uri":"skill://a/SKILL.md"},`, 4000))
	for i := range 50 {
		id := []byte{'1' + byte(i%9), '0' + byte(i%10)}
		parts := [][]byte{page}
		if i%4 == 3 {
			parts = [][]byte{resultContentsOpen, page, resultContentsClose}
		}
		w := httptest.NewRecorder()
		if err := writeFast(w, id, parts...); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(w.Body.Bytes(), freshAnswer(id, parts)) {
			t.Fatalf("answer %d (id %s) is not the one made anew", i, id)
		}
	}
}

// TestWriteKeptIsFresh: answers written from envelopes by writeKept, by
// goroutines at once on the same envelopes (some through writeFast, the
// envelope being held), with ids of every length up to past the room, are
// each the answer made anew; and a request alone on an envelope writes
// from it (its id is in the envelope's room after).
func TestWriteKeptIsFresh(t *testing.T) {
	page := []byte(strings.Repeat(`{"name":"a skill","description":"x"},`, 3000))
	small := []byte(`{"content":[{"type":"text","text":"hi"}]}`)
	envs := []*envelope{newEnvelope(page), newEnvelope(small), newEnvelope(resultContentsOpen, small, resultContentsClose), newEnvelope()}
	results := [][]byte{page, small, bytes.Join([][]byte{resultContentsOpen, small, resultContentsClose}, nil), nil}
	for i, e := range envs {
		if !bytes.Equal(e.result(), results[i]) {
			t.Fatalf("envelope %d holds %.40q, want %.40q", i, e.result(), results[i])
		}
	}
	ids := make([][]byte, 0, 50)
	for n := 1; n <= envRoom-len(answerStart)+3; n++ {
		ids = append(ids, []byte(strings.Repeat("7", n)))
	}
	ids = append(ids, []byte(`"a-string-id"`), []byte("-3"))
	for _, id := range ids {
		w := httptest.NewRecorder()
		if err := writeKept(w, id, envs[0]); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(w.Body.Bytes(), freshAnswer(id, [][]byte{page})) {
			t.Fatalf("id %s: the answer is not the one made anew", id)
		}
		fits := len(answerStart)+len(id) <= envRoom
		if inRoom := bytes.Contains(envs[0].b[:envRoom+len(resultKey)], append(append([]byte(answerStart), id...), resultKey...)); inRoom != fits {
			t.Fatalf("id of %d bytes: written in the envelope %v, want %v", len(id), inRoom, fits)
		}
		if got := w.Header().Get("Content-Type"); got != "application/json" {
			t.Fatalf("Content-Type %q", got)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 21))
			for range 300 {
				i, id := rng.IntN(len(envs)), ids[rng.IntN(len(ids))]
				w := httptest.NewRecorder()
				if err := writeKept(w, id, envs[i]); err != nil {
					errs <- err.Error()
					return
				}
				if !bytes.Equal(w.Body.Bytes(), freshAnswer(id, [][]byte{results[i]})) {
					errs <- fmt.Sprintf("envelope %d, id %s: the answer is not the one made anew", i, id)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}
