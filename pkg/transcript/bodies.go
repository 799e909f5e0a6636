package transcript

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
)

// Limits on the bodies of recorded calls (HAR, VCR) once decompressed: a
// gzip body of a few kilobytes can decode to gigabytes. A chat response is
// far smaller than either.
const (
	// MaxRecordedBody bounds one body, decoded.
	MaxRecordedBody = 64 << 20
	// MaxRecordedBodies bounds every gzip body of one file, decoded.
	MaxRecordedBodies = 256 << 20
)

// BodyTooLargeError is a recorded body that decodes past a limit.
type BodyTooLargeError struct {
	Limit int64 // the limit crossed, in bytes
	All   bool  // the limit of a file's bodies together, not of one
}

func (e *BodyTooLargeError) Error() string {
	if e.All {
		return fmt.Sprintf("gzip bodies decode past %s in all (the limit for one file)", mib(e.Limit))
	}
	return fmt.Sprintf("gzip body decodes past %s (the limit for one recorded body)", mib(e.Limit))
}

// The limits in force; tests lower them.
var maxBody, maxBodies int64 = MaxRecordedBody, MaxRecordedBodies

// bodyDecoder decompresses the gzip bodies of one file within the limits.
type bodyDecoder struct {
	used int64 // decoded bytes of the file's gzip bodies so far
}

// gunzip returns b decompressed when it is gzip data, else b; a body that
// decodes past a limit is a [*BodyTooLargeError]. Data that starts as
// gzip but is not is returned as it is.
func (d *bodyDecoder) gunzip(b []byte) ([]byte, error) {
	if len(b) < 18 || b[0] != 0x1f || b[1] != 0x8b { // 10 bytes of header, 8 of trailer
		return b, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return b, nil
	}
	limit, all := maxBody, false
	if left := maxBodies - d.used; left < limit {
		limit, all = left, true
	}
	// The gzip trailer states the decoded size (mod 2³²): a hint for the
	// buffer, so that it is not grown by doubling; the limit holds
	// whatever the trailer says.
	hint := int64(binary.LittleEndian.Uint32(b[len(b)-4:]))
	out, err := readUpTo(zr, limit+1, min(hint, limit)+1)
	if int64(len(out)) > limit {
		if all {
			limit = maxBodies
		}
		return nil, &BodyTooLargeError{Limit: limit, All: all}
	}
	if err != nil {
		return b, nil
	}
	d.used += int64(len(out))
	return out, nil
}

// mib writes n bytes in MiB when whole, else in bytes.
func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// readUpTo reads r to its end or to max bytes, whichever comes first,
// into a buffer of size hint grown as needed but never past max.
func readUpTo(r io.Reader, max, hint int64) ([]byte, error) {
	buf := make([]byte, 0, hint)
	for int64(len(buf)) < max {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, int(min(int64(cap(buf)), max-int64(len(buf)))))
		}
		n, err := r.Read(buf[len(buf):min(int64(cap(buf)), max)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}
