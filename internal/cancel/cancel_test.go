package cancel

import "testing"

func TestStopped(t *testing.T) {
	if Stopped(nil) {
		t.Error("a nil channel never stops")
	}
	done := make(chan struct{})
	if Stopped(done) {
		t.Error("an open channel has not stopped")
	}
	close(done)
	if !Stopped(done) {
		t.Error("a closed channel has stopped")
	}
}
