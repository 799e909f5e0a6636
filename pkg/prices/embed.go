package prices

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
)

// The embedded snapshot of pydantic's genai-prices database, its
// provenance and its licence (MIT; see LICENSE in this directory).
// scripts/update-prices.sh refreshes all three.
var (
	//go:embed data.json
	snapshotData []byte
	//go:embed data.meta.json
	snapshotMeta []byte
	//go:embed LICENSE
	// License is the licence of the embedded price data (MIT, Pydantic
	// Services Inc.).
	License string
)

// SnapshotInfo says which genai-prices release the embedded data is.
type SnapshotInfo struct {
	// Version is the npm package @pydantic/genai-prices the data was taken
	// from; Published its publish date, Retrieved the day it was copied
	// (YYYY-MM-DD).
	Version   string `json:"version"`
	Published string `json:"published"`
	Retrieved string `json:"retrieved"`
	Source    string `json:"source"`
}

// String is "genai-prices 0.1.8 (2026-09-23)".
func (s SnapshotInfo) String() string {
	return fmt.Sprintf("genai-prices %s (%s)", s.Version, s.Published)
}

var snapshot = sync.OnceValues(func() (*DB, SnapshotInfo) {
	var info SnapshotInfo
	if err := json.Unmarshal(snapshotMeta, &info); err != nil {
		panic("prices: the embedded data.meta.json: " + err.Error())
	}
	db, err := Load(snapshotData, info.String())
	if err != nil {
		panic("prices: the embedded snapshot: " + err.Error())
	}
	return db, info
})

// Snapshot returns the embedded genai-prices database, loaded once. Do
// not change it.
func Snapshot() *DB {
	db, _ := snapshot()
	return db
}

// Info returns the provenance of the embedded snapshot.
func Info() SnapshotInfo {
	_, info := snapshot()
	return info
}
