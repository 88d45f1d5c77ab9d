// SPDX-License-Identifier: GPL-2.0-only
/*
 * The program each layer's check links: the layer's library whole, with
 * only the layers below it. A call from a layer to one above it is an
 * undefined reference, and the build fails (docs/architecture.md,
 * "Inside hostctl/").
 */
int main(void)
{
	return 0;
}
