package model

import (
	"go/types"
	"strings"
)

// TelemetryPackages are the logging, metrics, tracing and error-reporting libraries whose
// calls are neutral: what a handler logs, counts, traces or reports is not its business
// effect, whatever the library sends (a Sentry event POSTed, spans exported over HTTP). A
// path stands for its subpackages too. A project names its own under neutral in its models.
var TelemetryPackages = []string{
	"log",
	"log/slog",
	"go.uber.org/zap",
	"github.com/rs/zerolog",
	"github.com/sirupsen/logrus",
	"github.com/go-kit/log",
	"github.com/go-kit/kit/log",
	"go.opentelemetry.io/otel",
	"github.com/prometheus/client_golang",
	"github.com/getsentry/sentry-go",
}

var telemetry = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range TelemetryPackages {
		m[p] = true
	}
	return m
}()

// logLevels are the method names of a logger's levels; a method named one of them, or one
// of them with a suffix a logger's API adds (Errorf, Infow, Warnln, ErrorContext), on a
// type that holds a logger, is an application's logger method.
var logLevels = []string{"Debug", "Info", "Warn", "Warning", "Error", "Fatal", "Panic", "Trace", "Log", "Print"}

var logSuffixes = []string{"", "f", "w", "ln", "Context", "Ctx"}

// LoggerMethod reports whether fn is a method of an application's own logger: named like a
// log level, on a type that holds (as a field, at most two levels of structs deep,
// embedding included) a value of a neutral package's type (a *zap.Logger, *slog.Logger,
// zerolog.Logger, logrus.FieldLogger). Its calls are neutral as the logger's are: effects
// it reaches beside logging (an Error that also POSTs to a log intake) are not the
// handler's.
func (ix *Index) LoggerMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil || !levelName(fn.Name()) {
		return false
	}
	return ix.holdsLogger(recv.Type(), 0)
}

func levelName(name string) bool {
	for _, l := range logLevels {
		if rest, ok := strings.CutPrefix(name, l); ok {
			for _, s := range logSuffixes {
				if rest == s {
					return true
				}
			}
		}
	}
	return false
}

func (ix *Index) holdsLogger(t types.Type, depth int) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if named, ok := types.Unalias(t).(*types.Named); ok && named.Obj().Pkg() != nil && depth > 0 &&
		ix.NeutralPackage(named.Obj().Pkg().Path()) {
		return true
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 2 {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if ix.holdsLogger(st.Field(i).Type(), depth+1) {
			return true
		}
	}
	return false
}
