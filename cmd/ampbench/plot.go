package main

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The roofline chart's size: 960 x 720 pixels in PNG (96 dots per inch).
const (
	plotWidth  = 10 * vg.Inch
	plotHeight = 7.5 * vg.Inch
)

// refShift is how far left of its kernel a reference point is drawn (a factor of the
// intensity), so that the two stay apart where their rates are close.
const refShift = 1.12

// peakKernel is the case whose rate is the compute roof.
const peakKernel = "fma-peak-f32"

// streamingKernel reports whether a kernel streams its data once (the memory roof is the
// best bandwidth among these).
func streamingKernel(name string) bool {
	for _, p := range []string{"vadd-", "saxpy-", "fill-", "transpose-", "reduce-", "scan-"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// rooflinePoint is one kernel on the chart.
type rooflinePoint struct {
	kernel    string
	intensity float64 // FLOP/byte
	gflops    float64 // achieved GFLOP/s
	refGflops float64 // the reference's achieved GFLOP/s, 0 if none
}

// roof is the chart's ceiling: memory bandwidth and compute peak, with where each comes from.
type roof struct {
	gbps, gflops       float64
	gbpsFrom, peakFrom string // legend text: which kernel set each
}

// ErrNoPoints is -plot's error for a report with no result that has FLOPs and bytes.
var ErrNoPoints = errors.New("no result has flops and bytes to place on a roofline (a report from an older ampbench?)")

// rooflinePoints places every result that counts FLOPs and bytes: intensity Flops/Bytes,
// rate Flops/Seconds, and the reference's rate from its time for the same work.
func rooflinePoints(rep Report) []rooflinePoint {
	var pts []rooflinePoint
	for _, r := range rep.Results {
		if r.Flops <= 0 || r.Bytes <= 0 || r.Seconds <= 0 {
			continue
		}
		p := rooflinePoint{kernel: r.Kernel, intensity: r.Flops / r.Bytes, gflops: r.Flops / r.Seconds / 1e9}
		refSec := r.RefSeconds
		if refSec <= 0 && r.RefRate > 0 {
			refSec = r.Seconds * r.Rate / r.RefRate
		}
		if refSec > 0 {
			p.refGflops = r.Flops / refSec / 1e9
		}
		pts = append(pts, p)
	}
	return pts
}

// measuredRoof is the roof of rep: the best GB/s of its streaming kernels and the GFLOP/s
// of fma-peak-f32; when one is missing, the best of any kernel stands in and the legend
// says so.
func measuredRoof(rep Report) roof {
	var rf roof
	var bestBW, bestAny, bestFlops string
	var bwAny, flopsAny float64
	for _, r := range rep.Results {
		if r.Seconds <= 0 || r.Bytes <= 0 || r.Flops <= 0 {
			continue
		}
		gbps, gflops := r.Bytes/r.Seconds/1e9, r.Flops/r.Seconds/1e9
		if streamingKernel(r.Kernel) && gbps > rf.gbps {
			rf.gbps, bestBW = gbps, r.Kernel
		}
		if gbps > bwAny {
			bwAny, bestAny = gbps, r.Kernel
		}
		if r.Kernel == peakKernel {
			rf.gflops = gflops
		}
		if gflops > flopsAny {
			flopsAny, bestFlops = gflops, r.Kernel
		}
	}
	rf.gbpsFrom = "best of the streaming kernels: " + bestBW
	if bestBW == "" {
		rf.gbps, rf.gbpsFrom = bwAny, "no streaming kernel in this run: best of "+bestAny
	}
	rf.peakFrom = peakKernel
	if rf.gflops == 0 {
		rf.gflops, rf.peakFrom = flopsAny, "no "+peakKernel+" in this run: best of "+bestFlops
	}
	return rf
}

// checkPlotFile refuses a chart file whose extension is neither .png nor .svg.
func checkPlotFile(file string) error {
	switch ext := strings.ToLower(filepath.Ext(file)); ext {
	case ".png", ".svg":
		return nil
	default:
		return fmt.Errorf("-plot %s: extension %q, want .png or .svg", file, ext)
	}
}

// plotRoofline draws rep's roofline chart to file, PNG or SVG by its extension.
func plotRoofline(file string, rep Report) error {
	if err := checkPlotFile(file); err != nil {
		return err
	}
	pts := rooflinePoints(rep)
	if len(pts) == 0 {
		return ErrNoPoints
	}
	rf := measuredRoof(rep)

	p := plot.New()
	p.Title.Text = fmt.Sprintf("Roofline: %s (%s)\nn=%d mat=%d img=%d, %s", rep.Accelerator, rep.Description, rep.Sizes.N, rep.Sizes.Mat, rep.Sizes.Img, rep.Date)
	p.X.Label.Text = "arithmetic intensity (FLOP/byte)"
	p.Y.Label.Text = "achieved GFLOP/s"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Legend.Padding = vg.Points(2)

	// Axis ranges: every point and the ridge, with a margin.
	ridge := rf.gflops / rf.gbps
	xmin, xmax := ridge, ridge
	ymin, ymax := rf.gflops, rf.gflops
	for _, q := range pts {
		xmin, xmax = math.Min(xmin, q.intensity), math.Max(xmax, q.intensity)
		ymin, ymax = math.Min(ymin, q.gflops), math.Max(ymax, q.gflops)
		if q.refGflops > 0 {
			ymin, ymax = math.Min(ymin, q.refGflops), math.Max(ymax, q.refGflops)
		}
	}
	xmin, xmax = xmin/4, xmax*8 // room for the labels on the right
	ymin, ymax = ymin/4, ymax*4
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, ymin, ymax

	if rf.gbps > 0 && rf.gflops > 0 {
		mem, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: rf.gbps * xmin}, {X: ridge, Y: rf.gflops}})
		if err != nil {
			return err
		}
		mem.Color, mem.Width = color.RGBA{R: 200, A: 255}, vg.Points(2)
		peak, err := plotter.NewLine(plotter.XYs{{X: ridge, Y: rf.gflops}, {X: xmax, Y: rf.gflops}})
		if err != nil {
			return err
		}
		peak.Color, peak.Width = color.RGBA{B: 200, A: 255}, vg.Points(2)
		p.Add(mem, peak)
		p.Legend.Add(fmt.Sprintf("memory roof %.4g GB/s (%s)", rf.gbps, rf.gbpsFrom), mem)
		p.Legend.Add(fmt.Sprintf("compute roof %.4g GFLOP/s (%s)", rf.gflops, rf.peakFrom), peak)
	}

	var ours, refs plotter.XYs
	for _, q := range pts {
		ours = append(ours, plotter.XY{X: q.intensity, Y: q.gflops})
		if q.refGflops > 0 {
			refs = append(refs, plotter.XY{X: q.intensity / refShift, Y: q.refGflops})
		}
	}
	sc, err := plotter.NewScatter(ours)
	if err != nil {
		return err
	}
	sc.GlyphStyle = draw.GlyphStyle{Shape: draw.CircleGlyph{}, Radius: vg.Points(4), Color: color.RGBA{G: 120, A: 255}}
	p.Add(sc)
	p.Legend.Add("goamp (the int32 kernels and sort count integer ops)", sc)
	if len(refs) > 0 {
		rs, err := plotter.NewScatter(refs)
		if err != nil {
			return err
		}
		rs.GlyphStyle = draw.GlyphStyle{Shape: draw.TriangleGlyph{}, Radius: vg.Points(4.5), Color: color.RGBA{R: 230, G: 120, A: 255}}
		p.Add(rs)
		p.Legend.Add("reference (PyTorch, "+filepath.Base(rep.Reference)+"), just left of its kernel", rs)
	}
	p.Add(&pointLabels{pts: pts, roof: rf})
	return p.Save(plotWidth, plotHeight, file)
}

// pointLabels names the goamp points, each to the right of its point, moved up or down
// (with a leader line) where it would cover a label already placed.
type pointLabels struct {
	pts  []rooflinePoint
	roof roof // the labels keep off its lines too
}

// Plot implements plot.Plotter.
func (l *pointLabels) Plot(c draw.Canvas, plt *plot.Plot) {
	sty := draw.TextStyle{
		Color:   color.Black,
		Font:    font.From(plot.DefaultFont, vg.Points(8)),
		Handler: plot.DefaultTextHandler,
		XAlign:  draw.XLeft,
		YAlign:  draw.YCenter,
	}
	tx, ty := plt.Transforms(&c)
	order := slices.Clone(l.pts)
	// Higher points first, so that a column of labels reads top to bottom.
	slices.SortStableFunc(order, func(a, b rooflinePoint) int {
		switch {
		case a.gflops > b.gflops:
			return -1
		case a.gflops < b.gflops:
			return 1
		}
		return 0
	})
	var placed []vg.Rectangle
	// Reserve the points themselves, so that no label covers one.
	for _, q := range l.pts {
		x, y := tx(q.intensity), ty(q.gflops)
		placed = append(placed, vg.Rectangle{Min: vg.Point{X: x - 4, Y: y - 4}, Max: vg.Point{X: x + 4, Y: y + 4}})
		if q.refGflops > 0 {
			rx, ry := tx(q.intensity/refShift), ty(q.refGflops)
			placed = append(placed, vg.Rectangle{Min: vg.Point{X: rx - 5, Y: ry - 5}, Max: vg.Point{X: rx + 5, Y: ry + 5}})
			c.StrokeLine2(draw.LineStyle{Color: color.RGBA{R: 230, G: 120, A: 255}, Width: vg.Points(0.5), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}}, x, y, rx, ry)
		}
	}
	// Reserve the roof lines, as a chain of small boxes.
	if l.roof.gbps > 0 && l.roof.gflops > 0 {
		xmin, xmax := plt.X.Min, plt.X.Max
		for i := 0; i <= 400; i++ {
			x := xmin * math.Pow(xmax/xmin, float64(i)/400)
			y := math.Min(l.roof.gflops, l.roof.gbps*x)
			cx, cy := tx(x), ty(y)
			placed = append(placed, vg.Rectangle{Min: vg.Point{X: cx - 1, Y: cy - 1.5}, Max: vg.Point{X: cx + 1, Y: cy + 1.5}})
		}
	}
	leader := draw.LineStyle{Color: color.Gray{Y: 140}, Width: vg.Points(0.5)}
	h := sty.Height("M") * 1.15
	for _, q := range order {
		x, y := tx(q.intensity), ty(q.gflops)
		w := sty.Width(q.kernel)
		var at vg.Point
		for k := 0; k < 60; k++ {
			dy := vg.Length((k+1)/2) * h // 0, h, h, 2h, 2h, ...: alternately down and up
			if k%2 == 1 {
				dy = -dy
			}
			at = vg.Point{X: x + 7, Y: y + dy}
			r := vg.Rectangle{Min: vg.Point{X: at.X, Y: at.Y - h/2}, Max: vg.Point{X: at.X + w, Y: at.Y + h/2}}
			if !overlapsAny(r, placed) {
				placed = append(placed, r)
				break
			}
		}
		if at.Y != y {
			c.StrokeLine2(leader, x+4, y, at.X-1, at.Y)
		}
		c.FillText(sty, at, q.kernel)
	}
}

func overlapsAny(r vg.Rectangle, rs []vg.Rectangle) bool {
	for _, o := range rs {
		if r.Min.X < o.Max.X && o.Min.X < r.Max.X && r.Min.Y < o.Max.Y && o.Min.Y < r.Max.Y {
			return true
		}
	}
	return false
}
