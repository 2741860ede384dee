"""Reading OpenVINO IR XML: the document model, the safe reader and the .bin weights."""
