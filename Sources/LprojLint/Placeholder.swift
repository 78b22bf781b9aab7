enum LprojLintPlaceholder {}
