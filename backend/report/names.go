package report

// resourceLabel is how a report shows a resource: its name with the id
// beside it where a source names it, else the id.
func resourceLabel(name, id string) string {
	if name == "" || name == id {
		return id
	}
	if id == "" {
		return name
	}
	return name + " (" + id + ")"
}
