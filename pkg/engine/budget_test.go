package engine

import "testing"

func TestParseAmount(t *testing.T) {
	tests := []struct {
		in      string
		want    Amount
		of1000  int // resolved against 1000, by hand
		wantErr string
	}{
		{in: "0", want: Amount{N: 0}, of1000: 0},
		{in: "64", want: Amount{N: 64}, of1000: 64},
		{in: " 64 ", want: Amount{N: 64}, of1000: 64},
		{in: "5%", want: Amount{N: 5, Percent: true}, of1000: 50},
		{in: "33%", want: Amount{N: 33, Percent: true}, of1000: 330},
		{in: "150%", want: Amount{N: 150, Percent: true}, of1000: 1500},
		{in: "-1", wantErr: `want a whole number of tokens ≥ 0 or a percentage such as 5%, got "-1"`},
		{in: "+1", wantErr: `want a whole number of tokens ≥ 0 or a percentage such as 5%, got "+1"`},
		{in: "1.5%", wantErr: `want a whole percentage such as 5%, got "1.5%"`},
		{in: "%", wantErr: `want a whole percentage such as 5%, got "%"`},
		{in: "", wantErr: `want a whole number of tokens ≥ 0 or a percentage such as 5%, got ""`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			a, err := ParseAmount(tt.in)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || a != tt.want {
				t.Fatalf("ParseAmount(%q) = %+v, %v; want %+v", tt.in, a, err, tt.want)
			}
			if got := a.Of(1000); got != tt.of1000 {
				t.Errorf("Of(1000) = %d, want %d", got, tt.of1000)
			}
		})
	}
	// 5% of 1999 is 99.95: rounded down.
	if got := (Amount{N: 5, Percent: true}).Of(1999); got != 99 {
		t.Errorf("5%% of 1999 = %d, want 99", got)
	}
}

func TestParseCap(t *testing.T) {
	c, err := ParseCap("retrieval=40%")
	if err != nil || c.Dimension != "retrieval" || c.Limit != (Amount{N: 40, Percent: true}) {
		t.Errorf("ParseCap = %+v, %v", c, err)
	}
	for _, bad := range []string{"retrieval", "=5", "tool=x", "tool=-1"} {
		if _, err := ParseCap(bad); err == nil {
			t.Errorf("ParseCap(%q) accepted", bad)
		}
	}
}

func TestBudget(t *testing.T) {
	// SPEC §4's example: 2048 − 512 − 0 − 64 = 1472.
	b := Budget{Total: 2048, ReserveOutput: 512, SafetyMargin: 64}
	if b.Available() != 1472 || b.Validate() != nil {
		t.Errorf("available %d, validate %v", b.Available(), b.Validate())
	}
	// Reserves equal to the total leave 0, which is valid.
	if b := (Budget{Total: 100, ReserveOutput: 60, ReserveTools: 40}); b.Available() != 0 || b.Validate() != nil {
		t.Errorf("exact reserves: %d %v", b.Available(), b.Validate())
	}
	for _, bad := range []Budget{{Total: 10, ReserveOutput: 11}, {Total: 10, SafetyMargin: -1}, {Total: 10, ReserveTools: -2}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
