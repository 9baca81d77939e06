// Package gopls holds the integration test of the editor route through gopls: it builds
// gopls with idemlint's analyzer by scripts/build-gopls.sh, starts it, speaks LSP over
// stdio and checks idemlint's diagnostics and quick fix (see docs/editors.md).
//
// It is a module of its own so that the root module's tests stay fast; run it with
// (cd integration/gopls && go test ./...).
package gopls
