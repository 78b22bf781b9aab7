print("lprojctl")
