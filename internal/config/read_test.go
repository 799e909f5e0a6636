package config

import (
	"strings"
	"testing"
)

func TestConfigValues(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want []string
	}{
		{"scalar", 2048, []string{"2048"}},
		{"bool", true, []string{"true"}},
		{"list", []any{"a=1", "b=2"}, []string{"a=1", "b=2"}},
		{"map in key order", map[string]any{"tool": "10%", "history": 500}, []string{"history=500", "tool=10%"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Values(tt.in)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
