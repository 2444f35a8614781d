#include <cstdio>

// # not a heading: a comment of the file
int main() {
	if (true) {
		std::printf("a < b && c > d\n");
	}
	return 0;
}
