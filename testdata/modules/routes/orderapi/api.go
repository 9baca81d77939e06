// Package orderapi is the order service's HTTP API, served on a net/http ServeMux with
// method patterns: the activities of package activities call it over HTTP.
package orderapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

	"routes/store"
)

type handlers struct {
	store *store.Store
	mu    sync.Mutex
	tally map[string]int64 // kept in memory from one request to the next
}

// Router serves the API.
func Router(s *store.Store) *http.ServeMux {
	h := &handlers{store: s, tally: map[string]int64{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /orders/{id}/status", h.handleStatus)
	mux.HandleFunc("POST /orders/{id}/insert", h.handleInsert)
	mux.HandleFunc("POST /orders/{id}/notes", h.handleNote)
	mux.HandleFunc("POST /orders/{id}/check", h.handleCheck)
	mux.Handle("POST /orders/{id}/touch", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent) // does nothing: safe to repeat
	}))
	return mux
}

func (h *handlers) handleStatus(w http.ResponseWriter, r *http.Request) {
	var body struct{ Status string }
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := h.store.SetStatus(r.Context(), r.PathValue("id"), body.Status); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

func (h *handlers) handleInsert(w http.ResponseWriter, r *http.Request) {
	if err := h.store.Insert(r.Context(), r.PathValue("id")); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

func (h *handlers) handleNote(w http.ResponseWriter, r *http.Request) {
	if err := h.store.AddNote(r.Context(), r.PathValue("id"), r.FormValue("note")); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// handleCheck answers whether an amount stays under a limit, and adds it to the order's
// tally in memory: a repeated request counts it twice (the fraud-check shape).
func (h *handlers) handleCheck(w http.ResponseWriter, r *http.Request) {
	amount, _ := strconv.ParseInt(r.FormValue("amount"), 10, 64)
	h.mu.Lock()
	h.tally[r.PathValue("id")] += amount
	over := h.tally[r.PathValue("id")] > 1000
	h.mu.Unlock()
	_ = json.NewEncoder(w).Encode(map[string]bool{"declined": over})
}
