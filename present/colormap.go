package present

// stops are the colormap's colours at equal steps from Lo to Hi: black through purple,
// red and orange to pale yellow (close to matplotlib's inferno).
var stops = [...][3]float32{
	{0, 0, 4},
	{40, 11, 84},
	{101, 21, 110},
	{159, 42, 99},
	{212, 72, 66},
	{245, 125, 21},
	{250, 193, 39},
	{252, 255, 164},
}

// Color returns the colormap's packed RGBA8 colour (opaque) of v in the range lo to hi:
// values at or below lo (and NaN) get the first colour, at or above hi the last, others
// are interpolated linearly between the two nearest of eight stops. An empty or reversed
// range (hi <= lo) shows everything at or below lo in the first colour, the rest in the last.
func Color(v, lo, hi float32) uint32 {
	var t float32
	switch {
	case !(v > lo): // NaN too
		t = 0
	case v >= hi:
		t = 1
	default:
		t = (v - lo) / (hi - lo)
	}
	x := t * float32(len(stops)-1)
	i := min(int(x), len(stops)-2)
	f := x - float32(i)
	var c [3]uint8
	for k := range c {
		c[k] = uint8(stops[i][k] + f*(stops[i+1][k]-stops[i][k]) + 0.5)
	}
	return Pack(c[0], c[1], c[2], 255)
}

// Colormap returns the packed RGBA8 colour of each value of field (see Color).
func Colormap(field []float32, lo, hi float32) []uint32 {
	out := make([]uint32, len(field))
	for i, v := range field {
		out[i] = Color(v, lo, hi)
	}
	return out
}
