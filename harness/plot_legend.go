package harness

// legendCorner chooses the corner of the plot area the legend covers
// least of: the one where the fewest points of the curves (their means
// and band edges, sampled along each segment) fall in the legend's share
// of the area, about 45% of its width and 35% of its height. The maximum
// score's line (at y = maxLine, 0 for none) counts a quarter as much as
// a curve: covering a reference line is better than covering data. Ties
// go to the top left, then the top right, the bottom right and the bottom
// left.
func legendCorner(curves []ScoreCurve, maxLine float64, xmin, xmax, ymin, ymax float64) (top, left bool) {
	const w, h, samples = 0.45, 0.35, 8
	corners := []struct{ top, left bool }{{true, true}, {true, false}, {false, false}, {false, true}}
	weight := make([]float64, len(corners))
	count := func(x, y, wt float64) {
		if xmax <= xmin || ymax <= ymin {
			return
		}
		fx, fy := (x-xmin)/(xmax-xmin), (y-ymin)/(ymax-ymin)
		for i, c := range corners {
			inX := (c.left && fx <= w) || (!c.left && fx >= 1-w)
			inY := (c.top && fy >= 1-h) || (!c.top && fy <= h)
			if inX && inY {
				weight[i] += wt
			}
		}
	}
	trace := func(ys []float64, wt float64) {
		for i := range ys {
			count(float64(i+1), ys[i], wt)
			if i+1 < len(ys) {
				for k := 1; k < samples; k++ {
					f := float64(k) / samples
					count(float64(i+1)+f, ys[i]+f*(ys[i+1]-ys[i]), wt)
				}
			}
		}
	}
	for _, c := range curves {
		trace(c.Mean, 1)
		trace(c.Lo, 1)
		trace(c.Hi, 1)
	}
	if maxLine > 0 {
		for k := 0; k <= 40; k++ {
			count(xmin+float64(k)/40*(xmax-xmin), maxLine, 0.25)
		}
	}
	best := 0
	for i := range corners {
		if weight[i] < weight[best] {
			best = i
		}
	}
	return corners[best].top, corners[best].left
}
