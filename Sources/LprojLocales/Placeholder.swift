enum LprojLocalesPlaceholder {}
