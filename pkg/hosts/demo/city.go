// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"container/heap"
	"math"
	"math/rand/v2"
)

// cityMap is a street grid: node i sits at (i%width, i/width) and links to
// its four neighbours. Each edge has a travel time by car and by bike; every
// tenth street is an avenue, fast for cars and slow for bikes (no bike lane).
type cityMap struct {
	width, height int
	edges         [][]street
}

// street is a directed edge of the city map.
type street struct {
	to       int
	carCost  float64
	bikeCost float64
}

// newCityMap generates a width×height grid from seed, so every run of the
// demo plans on the same city.
func newCityMap(width, height int, seed uint64) *cityMap {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	m := &cityMap{width: width, height: height, edges: make([][]street, width*height)}
	link := func(a, b int, avenue bool) {
		car := 1 + rng.Float64()*4
		bike := 2 + rng.Float64()*3
		if avenue {
			car /= 3
			bike *= 3
		}
		m.edges[a] = append(m.edges[a], street{to: b, carCost: car, bikeCost: bike})
		m.edges[b] = append(m.edges[b], street{to: a, carCost: car, bikeCost: bike})
	}
	for y := range height {
		for x := range width {
			i := y*width + x
			if x+1 < width {
				link(i, i+1, y%10 == 0)
			}
			if y+1 < height {
				link(i, i+width, x%10 == 0)
			}
		}
	}
	return m
}

// nodes is the number of intersections.
func (m *cityMap) nodes() int { return m.width * m.height }

// planCarRoute finds the fastest car route from one intersection to another
// with Dijkstra's algorithm and returns it with its travel time.
func (m *cityMap) planCarRoute(from, to int) ([]int, float64) {
	return m.shortestPath(from, to, func(s street) float64 { return s.carCost }, func(int) float64 { return 0 })
}

// planBikeRoute finds the fastest bike route with A*, guided by the
// Manhattan distance; bikes avoid avenues where they can.
func (m *cityMap) planBikeRoute(from, to int) ([]int, float64) {
	tx, ty := to%m.width, to/m.width
	manhattan := func(n int) float64 {
		dx, dy := n%m.width-tx, n/m.width-ty
		return 2 * float64(abs(dx)+abs(dy)) // 2 is the cheapest bike edge
	}
	return m.shortestPath(from, to, func(s street) float64 { return s.bikeCost }, manhattan)
}

// shortestPath is A* (Dijkstra when estimate is zero) over the city map.
func (m *cityMap) shortestPath(from, to int, cost func(street) float64, estimate func(int) float64) ([]int, float64) {
	dist := make([]float64, m.nodes())
	prev := make([]int32, m.nodes())
	for i := range dist {
		dist[i] = math.Inf(1)
		prev[i] = -1
	}
	dist[from] = 0
	q := &frontier{{node: from, dist: 0, priority: estimate(from)}}
	for q.Len() > 0 {
		cur := heap.Pop(q).(visit)
		if cur.node == to {
			break
		}
		if cur.dist > dist[cur.node] {
			continue // a stale entry
		}
		for _, s := range m.edges[cur.node] {
			if d := dist[cur.node] + cost(s); d < dist[s.to] {
				dist[s.to] = d
				prev[s.to] = int32(cur.node)
				heap.Push(q, visit{node: s.to, dist: d, priority: d + estimate(s.to)})
			}
		}
	}
	if math.IsInf(dist[to], 1) {
		return nil, dist[to]
	}
	var path []int
	for n := to; n != -1; n = int(prev[n]) {
		path = append(path, n)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path, dist[to]
}

// visit is a node waiting in the search frontier.
type visit struct {
	node     int
	dist     float64 // travel time from the start when queued
	priority float64 // dist plus the estimate to the goal
}

// frontier is a min-heap of visits by priority.
type frontier []visit

func (f frontier) Len() int           { return len(f) }
func (f frontier) Less(i, j int) bool { return f[i].priority < f[j].priority }
func (f frontier) Swap(i, j int)      { f[i], f[j] = f[j], f[i] }
func (f *frontier) Push(x any)        { *f = append(*f, x.(visit)) }
func (f *frontier) Pop() any {
	old := *f
	v := old[len(old)-1]
	*f = old[:len(old)-1]
	return v
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
