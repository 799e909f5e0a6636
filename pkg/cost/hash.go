package cost

import (
	"encoding/hex"
	"hash/fnv"
	"strconv"
)

// chain hashes a sequence of block IDs so that each prefix has its own
// key: key(k) = hash(key(k−1), id(k)).
type chain struct{ prev string }

func (c *chain) add(id string) string {
	h := fnv.New128a()
	h.Write([]byte(c.prev))
	h.Write([]byte{0})
	h.Write([]byte(id))
	c.prev = hex.EncodeToString(h.Sum(nil))
	return c.prev
}

// ContentID is a block identity for a message sent in some way: its
// index, how it was sent ("whole", "cleared", …) and a hash of what was
// sent.
func ContentID(index int, how string, parts ...string) string {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return strconv.Itoa(index) + "/" + how + "/" + hex.EncodeToString(h.Sum(nil))
}
