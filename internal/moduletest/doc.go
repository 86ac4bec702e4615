// Package moduletest holds no code, only a test that grue can be used the
// way any Go module is: required by a module outside this repository,
// whose go.mod is all the go command reads there, so that grue's own
// go.mod must build with no replace directive and with no package that
// exists only in a copied library (TestOutsideModule).
package moduletest
