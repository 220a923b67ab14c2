package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/examples/seeds"
	"github.com/goamp/goamp/runtime"
)

func tileAverage(w io.Writer, av *accelerator.View, _ bool) error {
	sampledata := []int32{
		2, 2, 9, 7, 1, 4,
		4, 4, 8, 8, 3, 4,
		1, 5, 1, 2, 5, 2,
		6, 8, 3, 2, 7, 2}
	averagedata := make([]int32, 24)
	sample, err := arrayview.New(runtime.Ext(4, 6), sampledata)
	if err != nil {
		return err
	}
	average, err := arrayview.New(runtime.Ext(4, 6), averagedata)
	if err != nil {
		return err
	}
	average.DiscardData()
	k := seeds.TileAverage{Sample: sample.ReadOnly(), Average: average}
	if err := runtime.ParallelForEachTiled(av, sample.Extent().Tile(2, 2), k); err != nil {
		return err
	}
	for i := 0; i < 4; i++ {
		row := make([]string, 6)
		for j := range row {
			row[j] = strconv.Itoa(int(average.At(runtime.Idx(i, j))))
		}
		fmt.Fprintln(w, strings.Join(row, " "))
	}
	return average.Close()
}

func tilingDescription(w io.Writer, av *accelerator.View, color bool) error {
	const rows, cols = 8, 9
	descs := make([]seeds.Description, rows*cols)
	for i := range descs {
		descs[i].Value = int32(i)
	}
	descriptions, err := arrayview.New(runtime.Ext(rows, cols), descs)
	if err != nil {
		return err
	}
	if err := runtime.ParallelForEachTiled(av, descriptions.Extent().Tile(2, 3), seeds.TilingDescription{Descriptions: descriptions}); err != nil {
		return err
	}
	// Tiles alternate between two colors (red and green, as in the seed) on a terminal.
	paint := func(d seeds.Description, s string) string {
		if !color {
			return s
		}
		code := "32"
		if (d.TileRow+d.TileColumn)%2 == 0 {
			code = "31"
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	lines := []func(d seeds.Description) string{
		func(d seeds.Description) string { return fmt.Sprintf("Value: %2d      ", d.Value) },
		func(d seeds.Description) string { return fmt.Sprintf("Tile:   (%d,%d)  ", d.TileRow, d.TileColumn) },
		func(d seeds.Description) string { return fmt.Sprintf("Global: (%d,%d)  ", d.GlobalRow, d.GlobalColumn) },
		func(d seeds.Description) string { return fmt.Sprintf("Local:  (%d,%d)  ", d.LocalRow, d.LocalColumn) },
	}
	for row := 0; row < rows; row++ {
		for _, line := range lines {
			var b strings.Builder
			for col := 0; col < cols; col++ {
				d := descriptions.At(runtime.Idx(row, col))
				b.WriteString(paint(d, line(d)))
			}
			fmt.Fprintln(w, b.String())
		}
		fmt.Fprintln(w)
	}
	return descriptions.Close()
}

func formatFloat(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }

// iotaMatrix returns a view of a rows x cols matrix holding 0, 1, 2, ... in row-major
// order, the samples' input.
func iotaMatrix(rows, cols int) (*arrayview.View[float32], error) {
	data := make([]float32, rows*cols)
	for i := range data {
		data[i] = float32(i)
	}
	return arrayview.New(runtime.Ext(rows, cols), data)
}

func samplingAverage(w io.Writer, av *accelerator.View, _ bool) error {
	const matrixSize = 8
	matrix, err := iotaMatrix(matrixSize, matrixSize)
	if err != nil {
		return err
	}
	defer matrix.Close()
	for _, fence := range []struct {
		name string
		kind int32
	}{{"tile_barrier::wait", 0}, {"wait_with_tile_static_memory_fence", 1}} {
		for _, size := range []int{2, 4} {
			out := matrixSize / size
			averages, err := arrayview.NewArray[float32](av, runtime.Ext(out, out), nil)
			if err != nil {
				return err
			}
			k := seeds.SamplingAverage{Matrix: matrix.ReadOnly(), Averages: averages, Fence: fence.kind}
			if err := runtime.ParallelForEachTiled(av, matrix.Extent().Tile(size, size), k); err != nil {
				return err
			}
			outputData := make([]float32, out*out)
			if err := averages.CopyTo(outputData); err != nil {
				return err
			}
			fmt.Fprintf(w, "SAMPLESIZE %d, %s:\n", size, fence.name)
			for row := 0; row < out; row++ {
				vals := make([]string, out)
				for col := range vals {
					vals[col] = formatFloat(outputData[row*out+col])
				}
				fmt.Fprintln(w, strings.Join(vals, " "))
			}
			if err := averages.Close(); err != nil {
				return err
			}
		}
	}
	return nil
}

// reduceRowOnce is the seed's ReduceRow with addition; discard applies guidelines A and B.
func reduceRowOnce(av *accelerator.View, matrix *arrayview.View[float32], row int, discard bool) (float32, error) {
	numCols := matrix.Extent().Dim(1)
	tempVec := make([]float32, numCols/2)
	tempView, err := arrayview.New(runtime.Ext(len(tempVec)), tempVec)
	if err != nil {
		return 0, err
	}
	if discard {
		tempView.DiscardData() // Guideline A: an output-only view uploads nothing
	}
	k := seeds.ReduceRowPair{Matrix: matrix.ReadOnly(), Temp: tempView, Row: int32(row), NumCols: int32(numCols)}
	if err := runtime.ParallelForEach(av, tempView.Extent(), k); err != nil {
		return 0, err
	}
	for stride := tempView.Extent().Dim(0) / 2; stride > 0; stride /= 2 {
		if err := runtime.ParallelForEach(av, runtime.Ext(stride), seeds.ReduceRowStride{Temp: tempView, Stride: int32(stride)}); err != nil {
			return 0, err
		}
	}
	first, err := tempView.Section(runtime.Idx(0), runtime.Ext(1))
	if err != nil {
		return 0, err
	}
	result := make([]float32, 1)
	if err := first.CopyTo(result); err != nil {
		return 0, err
	}
	if discard {
		tempView.DiscardData() // Guideline B: nothing is copied back when the view is closed
	}
	if err := first.Close(); err != nil {
		return 0, err
	}
	return result[0], tempView.Close()
}

func reduceRow(w io.Writer, av *accelerator.View, _ bool) error {
	const rows, cols = 4, 16
	matrix, err := iotaMatrix(rows, cols)
	if err != nil {
		return err
	}
	defer matrix.Close()
	if err := matrix.SynchronizeTo(av); err != nil {
		return err
	}
	moved := func(discard bool) (up, down uint64, sums []float32, err error) {
		s0 := av.Stats()
		for r := 0; r < rows; r++ {
			sum, err := reduceRowOnce(av, matrix, r, discard)
			if err != nil {
				return 0, 0, nil, err
			}
			sums = append(sums, sum)
		}
		s1 := av.Stats()
		return s1.BytesUp - s0.BytesUp, s1.BytesDown - s0.BytesDown, sums, nil
	}
	upKeep, downKeep, _, err := moved(false)
	if err != nil {
		return err
	}
	upDisc, downDisc, sums, err := moved(true)
	if err != nil {
		return err
	}
	for r, s := range sums {
		fmt.Fprintf(w, "row %d: sum %s\n", r, formatFloat(s))
	}
	fmt.Fprintf(w, "discard_data saved %d bytes of transfers: %d uploaded (guideline A), %d copied back (guideline B)\n",
		upKeep+downKeep-upDisc-downDisc, upKeep-upDisc, downKeep-downDisc)
	return nil
}
