// The sort programs' key maps, included by sort_load, sort_store, sort_radix_hist and the
// radix scatters (Go: algo sortKey and sortElem). sortKey maps the raw word x of an element
// of type code type (algo typeCode: 0 int32, 1 uint32, 2 float32) to a uint32 whose
// unsigned order is the elements' order (float32: IEEE 754 totalOrder, so -0 < +0 and NaNs
// sort by sign past the infinities); sortElem is its inverse. Both are the identity for
// uint32, so keys already mapped pass through with type 1. Bit 2 of type (algo
// sortDescending) complements the key, reversing the order.

uint sortKey(uint x, int type) {
	uint k = x;
	int t = type & 3;
	if (t == 0) k = x ^ 0x80000000u;
	if (t == 2) k = (x & 0x80000000u) != 0u ? ~x : x | 0x80000000u;
	return (type & 4) != 0 ? ~k : k;
}

uint sortElem(uint k, int type) {
	if ((type & 4) != 0) k = ~k;
	int t = type & 3;
	if (t == 0) return k ^ 0x80000000u;
	if (t == 2) return (k & 0x80000000u) != 0u ? k & 0x7FFFFFFFu : ~k;
	return k;
}
