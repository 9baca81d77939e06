// Package machinery is a stub of github.com/RichardKnop/machinery/v2 v2.0.13
// for the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package machinery

// Server is the machinery server.
type Server struct{ registered map[string]interface{} }

// RegisterTask registers taskFunc as the task named name.
func (server *Server) RegisterTask(name string, taskFunc interface{}) error { return nil }
