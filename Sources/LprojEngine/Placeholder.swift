enum LprojEnginePlaceholder {}
