// guardmalloc: an LD_PRELOAD allocator for testing shaders on SwiftShader. SwiftShader (a
// Vulkan driver on the CPU, without robust buffer access) takes device memory from malloc
// and runs shaders as machine code, so a shader's read or write past the end of a buffer
// touches whatever the heap holds there, and faults only now and then. Under this
// allocator each allocation of GUARD_MIN to GUARD_MAX bytes (the algorithms' scratch
// buffers start at 4 KiB) is its own mapping that ends at an inaccessible page, so that
// an access past its end ends the process with SIGSEGV every time. Every other
// allocation goes to glibc. `make test-swiftshader` builds it with cc -shared -fPIC.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

#define PAGE 4096u
#define GUARD_MIN 4096u
#define GUARD_MAX 65536u
#define SLOTS 8192

// slot holds the guarded allocations: the pointer handed out, its mapping and its size;
// hi is one past the highest slot in use.
static struct {
	uintptr_t p, base;
	size_t len, size;
} slot[SLOTS];
static int hi;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static int guardedSize(size_t size) { return size >= GUARD_MIN && size <= GUARD_MAX; }

// guarded returns size bytes aligned to align that end as close to a PROT_NONE page as
// the alignment allows, or 0 where no mapping or slot is left.
static void *guarded(size_t size, size_t align) {
	size_t data = (size + PAGE - 1) / PAGE * PAGE;
	size_t len = PAGE + data + PAGE; // room for the alignment, the data, the guard
	char *base = mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return 0;
	char *guard = base + PAGE + data;
	if (mprotect(guard, PAGE, PROT_NONE) != 0) {
		munmap(base, len);
		return 0;
	}
	uintptr_t p = ((uintptr_t)guard - size) & ~(uintptr_t)(align - 1);
	pthread_mutex_lock(&mu);
	for (int i = 0; i < SLOTS; i++) {
		if (slot[i].p == 0) {
			slot[i].p = p, slot[i].base = (uintptr_t)base, slot[i].len = len, slot[i].size = size;
			if (i >= hi)
				hi = i + 1;
			pthread_mutex_unlock(&mu);
			return (void *)p;
		}
	}
	pthread_mutex_unlock(&mu);
	munmap(base, len);
	return 0;
}

// find returns the slot of p, or -1 where glibc made p.
static int find(void *p) {
	int at = -1;
	if (!p)
		return -1;
	pthread_mutex_lock(&mu);
	for (int i = 0; i < hi; i++) {
		if (slot[i].p == (uintptr_t)p) {
			at = i;
			break;
		}
	}
	pthread_mutex_unlock(&mu);
	return at;
}

static void *alloc(size_t size, size_t align) {
	if (align < 16)
		align = 16;
	if (guardedSize(size) && align <= PAGE) {
		void *p = guarded(size, align);
		if (p)
			return p;
	}
	return align == 16 ? __libc_malloc(size) : __libc_memalign(align, size);
}

void *malloc(size_t size) { return alloc(size, 16); }

void *calloc(size_t n, size_t size) {
	if (size && n > SIZE_MAX / size)
		return 0;
	if (!guardedSize(n * size))
		return __libc_calloc(n, size);
	return alloc(n * size, 16); // a new mapping is zeroed
}

void free(void *p) {
	int i = find(p);
	if (i < 0) {
		__libc_free(p);
		return;
	}
	pthread_mutex_lock(&mu);
	uintptr_t base = slot[i].base;
	size_t len = slot[i].len;
	slot[i].p = 0;
	pthread_mutex_unlock(&mu);
	munmap((void *)base, len);
}

// malloc_usable_size is the size asked for, for a guarded allocation; glibc's chunk size
// less its header for the others.
size_t malloc_usable_size(void *p) {
	if (!p)
		return 0;
	int i = find(p);
	if (i >= 0)
		return slot[i].size;
	size_t h = ((size_t *)p)[-1];
	return (h & ~(size_t)7) - ((h & 2) ? 16 : 8);
}

void *realloc(void *p, size_t size) {
	if (find(p) < 0 && !guardedSize(size))
		return __libc_realloc(p, size);
	void *q = alloc(size, 16);
	if (q && p) {
		size_t old = malloc_usable_size(p);
		memcpy(q, p, old < size ? old : size);
		free(p);
	}
	return q;
}

int posix_memalign(void **out, size_t align, size_t size) {
	void *p = alloc(size, align);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

void *aligned_alloc(size_t align, size_t size) { return alloc(size, align); }

void *memalign(size_t align, size_t size) { return alloc(size, align); }
