package pipecache

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cacheFor makes a plausible cache for k: a version-one header and n random bytes of body.
func cacheFor(r *rand.Rand, k Key, n int) []byte {
	b := make([]byte, headerSize+n)
	le := binary.LittleEndian
	le.PutUint32(b[0:], headerSize)
	le.PutUint32(b[4:], 1)
	le.PutUint32(b[8:], k.VendorID)
	le.PutUint32(b[12:], k.DeviceID)
	copy(b[16:], k.UUID[:])
	for i := headerSize; i < len(b); i++ {
		b[i] = byte(r.Uint32())
	}
	return b
}

func randKey(r *rand.Rand) Key {
	k := Key{VendorID: r.Uint32(), DeviceID: r.Uint32(), DriverVersion: r.Uint32()}
	for i := range k.UUID {
		k.UUID[i] = byte(r.Uint32())
	}
	return k
}

// TestLoadStore stores caches and reads them back, and checks that every kind of bad
// file is ignored: Load returns nil and nothing fails.
func TestLoadStore(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 12))
	k := randKey(r)
	other := k
	other.UUID[3] ^= 1
	good := cacheFor(r, k, 1000)
	tests := []struct {
		name string
		file func() []byte // what lies in k's file; nil: no file
		want []byte
	}{
		{"none", nil, nil},
		{"valid", func() []byte { return good }, good},
		{"empty", func() []byte { return []byte{} }, nil},
		{"short", func() []byte { return good[:headerSize-1] }, nil},
		{"random", func() []byte {
			b := cacheFor(r, k, 64)
			r.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
			return b
		}, nil},
		{"header longer than file", func() []byte {
			b := append([]byte(nil), good[:headerSize]...)
			binary.LittleEndian.PutUint32(b, headerSize+8)
			return b
		}, nil},
		{"version 2", func() []byte {
			b := append([]byte(nil), good...)
			binary.LittleEndian.PutUint32(b[4:], 2)
			return b
		}, nil},
		{"another device's", func() []byte { return cacheFor(r, other, 100) }, nil},
		{"another vendor's", func() []byte {
			b := append([]byte(nil), good...)
			binary.LittleEndian.PutUint32(b[8:], k.VendorID+1)
			return b
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.file != nil {
				require.NoError(t, os.WriteFile(Path(dir, k), tc.file(), 0o644))
			}
			assert.Equal(t, tc.want, Load(dir, k))
		})
	}
}

// TestStore checks that Store replaces a cache, writes nothing invalid, leaves no
// temporary file, and that concurrent stores leave one whole cache.
func TestStore(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 13))
	k := randKey(r)
	dir := filepath.Join(t.TempDir(), "a", "b") // created by Store
	a, b := cacheFor(r, k, 5000), cacheFor(r, k, 7000)
	require.NoError(t, Store(dir, k, a))
	assert.Equal(t, a, Load(dir, k))
	require.NoError(t, Store(dir, k, b))
	assert.Equal(t, b, Load(dir, k))
	other := randKey(r)
	require.NoError(t, Store(dir, other, a)) // a is not other's: not written
	assert.NoFileExists(t, Path(dir, other))
	assert.Nil(t, Load(dir, other))
	k2 := k
	k2.DriverVersion++ // a new driver: a file of its own
	assert.Nil(t, Load(dir, k2))

	caches := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range caches {
		caches[i] = cacheFor(r, k, 20000+i)
		wg.Go(func() { assert.NoError(t, Store(dir, k, caches[i])) })
	}
	wg.Wait()
	assert.Contains(t, caches, Load(dir, k))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "temporary files left: %v", entries)
}

// TestDir checks the environment variable: off, a directory of the user's choice, and the
// default under the user's cache directory.
func TestDir(t *testing.T) {
	for _, off := range []string{"off", "OFF", "0", "false"} {
		t.Setenv(Env, off)
		assert.Empty(t, Dir(), off)
		assert.Nil(t, Load(Dir(), Key{}))
		assert.NoError(t, Store(Dir(), Key{}, nil))
	}
	t.Setenv(Env, "/some/where")
	assert.Equal(t, "/some/where", Dir())
	t.Setenv(Env, "")
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	assert.Equal(t, filepath.Join("/xdg", "goamp", "pipelines"), Dir())
}
