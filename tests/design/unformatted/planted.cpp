// Negative control for format.clang_format: laid out against .clang-format.
int   planted ( int a ){return a*2 ;}
