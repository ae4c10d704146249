package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/skillet-go/skillet/catalog"
)

// One memory budget (docs/serving.md#memory): Options.MaxServedBytes
// counts everything the server holds that grows with the skills or with
// what clients ask for:
//
//   - the files of the snapshot served now, as sent;
//   - the files a reload reads for the next snapshot, beside the current
//     one (files unchanged since are shared, and count once);
//   - the answers being written, from the moment a resources/read is
//     decoded until its answer has left (answerCost).
//
// A reload that would pass it stops, and the last good snapshot stays
// served (errOverBudget, skillet_reloads_over_budget_total); an answer
// that would pass it is refused with errAnswerBudget, which the client
// may retry (skillet_answers_over_budget_total). What is not counted is
// bounded on its own and is the fixed overhead MemoryOverhead states.

// MemoryOverhead is the memory a server holds beyond Options.MaxServedBytes
// at most, in bytes, with the default HTTPOptions: the Go runtime and the
// program (about 30 MiB), request bodies (HTTPOptions.BodyBudget, 64 MiB,
// and the first 64 KiB of each), the fast path's encoded answers (at most
// 32 MiB a snapshot, twice during a reload), sessions and connections
// within their bounds, and the garbage collector's lag. skillet serve sets
// the Go runtime's soft memory limit (GOMEMLIMIT) to the budget plus this
// overhead, and deploy/kubernetes gives the container that much
// (TestDeploymentMemoryFollowsTheBudget). Measured against the recipes
// of bench/attack in docs/serving.md#memory.
const MemoryOverhead = 192 << 20

// memory is the server's one budget: held counts the bytes charged to it.
type memory struct {
	max  int64
	held atomic.Int64
	// overBudget counts reloads stopped by the budget, refused answers
	// refused by it.
	overBudget, refused atomic.Int64
	lastGC              atomic.Int64 // when dropped last started a collection (Unix ns)
}

// take charges n bytes unless that would leave less than keep bytes of the
// budget free; it reports whether it did. A budget of 0 or less is none.
func (m *memory) take(n, keep int64) bool {
	if m.max <= 0 {
		m.held.Add(n)
		return true
	}
	for {
		h := m.held.Load()
		if h+n > m.max-keep {
			return false
		}
		if m.held.CompareAndSwap(h, h+n) {
			return true
		}
	}
}

// give returns n bytes to the budget.
func (m *memory) give(n int64) { m.held.Add(-n) }

// dropped starts a garbage collection when n bytes of files, at least a
// sixty-fourth of the budget, were just let go (a reload's old files, or
// the new ones of a reload that stopped), at most one a second: the
// collector would otherwise wait for the heap to reach its target, up to
// twice what is live or the runtime's soft limit, before it reuses them.
func (m *memory) dropped(n int64) {
	if m.max <= 0 || n < m.max/64 {
		return
	}
	now := time.Now().UnixNano()
	last := m.lastGC.Load()
	if now-last < int64(time.Second) || !m.lastGC.CompareAndSwap(last, now) {
		return
	}
	go runtime.GC()
}

// errOverBudget stops a reload whose new files do not fit beside the
// snapshot served now and the answers in flight.
var errOverBudget = errors.New("the memory budget (--max-served-bytes) cannot hold the files read for the next snapshot beside the one served now")

// errAnswerBudget refuses an answer the budget cannot hold now.
var errAnswerBudget = &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
	Message: "the server's memory budget (--max-served-bytes) is taken by other answers being written; try again shortly"}

// answerCost is what an answer holding a file of size bytes is charged:
// the file's JSON (base64 is 4/3 of a blob, a text at most twice its size
// before it goes out as a blob instead) and its copies on the way out:
// the fast path writes the envelope around the kept element once (about
// three times the JSON at its peak), the SDK encodes the result, the
// JSON-RPC envelope and the event-stream frame each once more (measured:
// big-readers-stateful in docs/serving.md#memory).
func answerCost(size int64, sdk bool) int64 {
	json := size*2 + 4<<10
	if sdk {
		return 4 * json
	}
	return 2 * json
}

// smallAnswer is the cost up to which an answer may use the last free
// part of the budget (answerKeep): a big file's readers cannot take the
// room that every small read needs.
const smallAnswer = 1 << 20

// answerKeep is the part of the budget only answers of at most
// smallAnswer may use.
func (m *memory) answerKeep(cost int64) int64 {
	if cost <= smallAnswer {
		return 0
	}
	return max(m.max/16, 4*smallAnswer)
}

// answerHold is what the answers of one HTTP request hold of the budget;
// the guard gives it back once the request's answer is written.
type answerHold struct{ n atomic.Int64 }

// holdOf returns the answerHold of the request of ctx, or nil.
func holdOf(ctx context.Context) *answerHold {
	if st := requestFrom(ctx); st != nil {
		return &st.hold
	}
	return nil
}

// chargeAnswer charges the answer of a file of size bytes to the request
// in ctx, or returns errAnswerBudget. Without a request (stdio, whose one
// client is answered in turn), nothing is charged.
func (s *Server) chargeAnswer(ctx context.Context, size int64, sdk bool) error {
	h := holdOf(ctx)
	if h == nil {
		return nil
	}
	cost := answerCost(size, sdk)
	if !s.mem.take(cost, s.mem.answerKeep(cost)) {
		s.mem.refused.Add(1)
		return errAnswerBudget
	}
	h.n.Add(cost)
	return nil
}

// refundAnswer gives back what chargeAnswer charged the request in ctx
// for a file of size bytes, for an answer not made after all.
func (s *Server) refundAnswer(ctx context.Context, size int64, sdk bool) {
	h := holdOf(ctx)
	if h == nil {
		return
	}
	cost := answerCost(size, sdk)
	h.n.Add(-cost)
	s.mem.give(cost)
}

// readBudget is what one snapshot's build may read: left bytes of the
// snapshot's own bound (Options.MaxServedBytes, past which a file is too
// large to serve), and fresh, the bytes it read anew and charged to the
// server's memory.
type readBudget struct {
	left  atomic.Int64
	fresh atomic.Int64
	mem   *memory
	// over is the first errOverBudget of the build, which then fails.
	over atomic.Pointer[error]
}

// reserve takes n bytes (gives them back for n < 0) from the snapshot's
// bound, and when fresh, also from the server's memory: a file that does
// not fit the snapshot is too large (catalog.ErrTooLarge), one that fits
// but not beside what the server holds stops the reload (errOverBudget).
func (b *readBudget) reserve(n int64, fresh bool, max int64) error {
	if b.left.Add(-n) < 0 {
		b.left.Add(n)
		return tooLargeErr(n, max)
	}
	if !fresh {
		return nil
	}
	if n < 0 {
		b.mem.give(-n)
		b.fresh.Add(n)
		return nil
	}
	if !b.mem.take(n, 0) {
		b.left.Add(n)
		err := fmt.Errorf("%w: %d more bytes with %d held of %d", errOverBudget, n, b.mem.held.Load(), b.mem.max)
		b.over.CompareAndSwap(nil, &err)
		return err
	}
	b.fresh.Add(n)
	return nil
}

// settle charges the server's memory for next, the snapshot now served in
// place of prev (nil for the first): the files read anew for it were
// charged as they were read, and what prev held that next does not share
// is given back.
func (m *memory) settle(prev, next *snapshot) {
	next.held = uniqueBytes(next)
	var prevHeld int64
	if prev != nil {
		prevHeld = prev.held
	}
	m.give(prevHeld + next.fresh - next.held)
	m.dropped(prevHeld + next.fresh - next.held)
}

// tooLargeErr is the error of a file of n bytes past max, the bytes all
// files of a snapshot may hold.
func tooLargeErr(n, max int64) error {
	return fmt.Errorf("%w: %d bytes, past the server's memory budget of %d bytes for all served files (--max-served-bytes)", catalog.ErrTooLarge, n, max)
}

// uniqueBytes is the bytes of sn's files, each file counted once however
// many skills or snapshots share it. A file counted is marked with this
// count's number (file.counted) rather than kept in a set: no map of
// every file each reload. Calls are serialised by Server.reloadMu.
func uniqueBytes(sn *snapshot) int64 {
	pass := countPass.Add(1)
	var n int64
	for _, sv := range sn.skills {
		for _, f := range sv.files {
			if f.counted != pass {
				f.counted = pass
				n += f.size
			}
		}
	}
	return n
}

// countPass numbers the passes of uniqueBytes and of layers over the
// served skills (served.listedIn).
var countPass atomic.Uint64
