package sqlstmt

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

func TestTry(t *testing.T) {
	f, err := os.Open(os.Getenv("TRY"))
	if err != nil {
		t.Skip()
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.ReplaceAll(sc.Text(), "#H", Hole)
		l = strings.ReplaceAll(l, `\n`, "\n")
		r := Classify(l)
		t.Logf("%-15s %-55q %s", r.Class, r.Reason, strings.ReplaceAll(sc.Text(), "\n", " "))
	}
}
