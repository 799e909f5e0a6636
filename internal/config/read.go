package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
)

// MaxSize bounds a configuration file (harpe's own limit, chosen
// 2026-12-01: the largest useful harpe.yaml is a few KiB).
const MaxSize = 1 << 20

// ReadFile reads a configuration file, refusing anything but a regular
// file of at most [MaxSize] bytes (a FIFO, a device such as /dev/zero, a
// directory). Its errors begin with path. os.DevNull, the usual way to
// say "no configuration", is for the caller to read as an empty file.
func ReadFile(path string) ([]byte, error) {
	// Looked at before it is opened: opening a FIFO blocks until a writer
	// comes, so a FIFO harpe.yaml would hang the run. The type is checked
	// again on the open file, in case the path changed in between.
	if fi, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%s: %v", path, pathErr(err))
	} else if err := checkType(path, fi); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, pathErr(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, pathErr(err))
	}
	if err := checkType(path, fi); err != nil {
		return nil, err
	}
	if fi.Size() > MaxSize {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d (1 MiB) a configuration file may have", path, fi.Size(), MaxSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, pathErr(err))
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("%s: more than the %d bytes (1 MiB) a configuration file may have", path, MaxSize)
	}
	return data, nil
}

// checkType refuses a configuration path that is not a regular file.
func checkType(path string, fi os.FileInfo) error {
	if fi.IsDir() {
		return fmt.Errorf("%s: is a directory, not a configuration file", path)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (a configuration file must be one)", path)
	}
	return nil
}

// ReadSmallFile reads a data file named by a flag or a configuration (a
// price table, a tokenizer.json): a regular file of at most limit bytes.
// The path is looked at before it is opened, as in [ReadFile], so a FIFO
// is refused at once instead of blocking in open until a writer comes,
// and a device such as /dev/zero is refused before a byte is read. Its
// errors begin with path.
func ReadSmallFile(path string, limit int64) ([]byte, error) {
	if fi, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%s: %v", path, pathErr(err))
	} else if err := checkDataType(path, fi); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, pathErr(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, pathErr(err))
	}
	if err := checkDataType(path, st); err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, larger than %s, the limit for this file", path, st.Size(), sizeName(limit))
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, pathErr(err))
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %s, the limit for this file", path, sizeName(limit))
	}
	return data, nil
}

// checkDataType refuses a data file that is not a regular file, naming
// what it is.
func checkDataType(path string, fi os.FileInfo) error {
	m := fi.Mode()
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return fmt.Errorf("%s: is a directory, not a file", path)
	case m&os.ModeNamedPipe != 0:
		return fmt.Errorf("%s: not a regular file (a FIFO)", path)
	case m&os.ModeDevice != 0:
		return fmt.Errorf("%s: not a regular file (a device)", path)
	case m&os.ModeSocket != 0:
		return fmt.Errorf("%s: not a regular file (a socket)", path)
	}
	return fmt.Errorf("%s: not a regular file", path)
}

// sizeName writes a limit in MiB when it is a whole number of them.
func sizeName(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Values turns a configuration value into the flag arguments that would
// have given it: a list gives one argument per element, a map one
// "key=value" argument per entry in key order.
func Values(val any) []string {
	switch t := val.(type) {
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			out = append(out, fmt.Sprint(e))
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make([]string, 0, len(keys))
		for _, k := range keys {
			out = append(out, k+"="+fmt.Sprint(t[k]))
		}
		return out
	default:
		return []string{fmt.Sprint(t)}
	}
}

// pathErr drops the operation and path from an *fs.PathError, since the
// messages name the file themselves.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
