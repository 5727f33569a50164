// PlacesPlanner: suggested trips (issue 31). Pure code, no daemon types: opening hours and
// the orienteering solver with time windows. docs/planner.md describes both.
