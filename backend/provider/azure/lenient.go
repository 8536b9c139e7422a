package azure

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// skipped counts, per listing, the items dropped as malformed during one
// Inventory call, with the first one's reason.
type skipped struct {
	mu    sync.Mutex
	n     map[string]int
	first map[string]string
}

type skippedKey struct{}

func withSkipped(ctx context.Context) (context.Context, *skipped) {
	s := &skipped{n: map[string]int{}, first: map[string]string{}}
	return context.WithValue(ctx, skippedKey{}, s), s
}

func (s *skipped) add(op, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n[op] == 0 {
		s.first[op] = reason
	}
	s.n[op]++
}

// err is the warning for what was skipped, nil when nothing was.
func (s *skipped) err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ops := make([]string, 0, len(s.n))
	total := 0
	for op, n := range s.n {
		ops = append(ops, op)
		total += n
	}
	if total == 0 {
		return nil
	}
	sort.Strings(ops)
	parts := make([]string, len(ops))
	for i, op := range ops {
		parts[i] = fmt.Sprintf("%s: %d, the first %s", op, s.n[op], s.first[op])
	}
	noun := "items"
	if total == 1 {
		noun = "item"
	}
	first := make(map[string]string, len(s.first))
	for op, r := range s.first {
		first[op] = r
	}
	return apperr.E(apperr.Provider, "azure: inventory: %d malformed %s skipped, the rest kept (%s)", total, noun, strings.Join(parts, "; ")).
		WithProvider(string(model.Azure)).WithDetail("skipped", total).WithDetail("first_skipped", first)
}

// lenientList drops the items of a list page that do not decode as T or
// carry no id, counting them in the call's skipped: the SDK decodes a page
// whole, so one malformed resource would otherwise cost the listing.
type lenientList[T any] struct{ op string }

// Do implements policy.Policy.
func (l lenientList[T]) Do(req *policy.Request) (*http.Response, error) {
	resp, err := req.Next()
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	sk, _ := req.Raw().Context().Value(skippedKey{}).(*skipped)
	body, err := runtime.Payload(resp)
	if err != nil || sk == nil {
		return resp, err
	}
	var page map[string]json.RawMessage
	var items []json.RawMessage
	if json.Unmarshal(body, &page) != nil || json.Unmarshal(page["value"], &items) != nil {
		// Not a page of items: the SDK reports it as it would.
		return resp, nil
	}
	kept := make([]json.RawMessage, 0, len(items))
	for _, it := range items {
		var head struct {
			ID any `json:"id"`
		}
		_ = json.Unmarshal(it, &head)
		id, _ := head.ID.(string)
		var v T
		switch err := json.Unmarshal(it, &v); {
		case err != nil && id != "":
			sk.add(l.op, fmt.Sprintf("%s: %v", id, err))
		case err != nil:
			sk.add(l.op, err.Error())
		case id == "":
			sk.add(l.op, "has no id")
		default:
			kept = append(kept, it)
		}
	}
	if len(kept) == len(items) {
		return resp, nil
	}
	if page["value"], err = json.Marshal(kept); err != nil {
		return nil, err
	}
	if body, err = json.Marshal(page); err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// listOptions are clientOptions with a lenient list policy.
func (p *Provider) listOptions(lenient policy.Policy) *arm.ClientOptions {
	co := p.clientOptions()
	co.PerCallPolicies = append(co.PerCallPolicies, lenient)
	return co
}

// merge keeps one resource per id, where it was first listed, with the
// last listing's data: Resource Manager may list an id twice (its own
// published examples do), and the history holds one row per id.
func merge(rs []model.Resource) []model.Resource {
	at := make(map[string]int, len(rs))
	out := rs[:0:0]
	for _, r := range rs {
		if i, ok := at[r.ResourceID]; ok {
			out[i] = r
			continue
		}
		at[r.ResourceID] = len(out)
		out = append(out, r)
	}
	return out
}
