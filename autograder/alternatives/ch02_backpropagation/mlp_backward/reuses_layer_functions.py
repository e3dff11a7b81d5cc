# Alternative style: builds on linear_backward, relu_backward and softmax_cross_entropy_backward, collects the pairs
# walking backwards and returns them reversed as a tuple of lists.
def mlp_backward(params, x, y):
    cache, h = [], x
    for i, (W, b) in enumerate(params):
        z = F.linear(h, W, b)
        cache.append((h, z))
        h = F.relu(z) if i + 1 < len(params) else z
    g = softmax_cross_entropy_backward(h, y)
    backwards = []
    for i in range(len(params) - 1, -1, -1):
        h_in, z = cache[i]
        if i + 1 < len(params):
            g = relu_backward(g, z)
        g_in, gW, gb = linear_backward(g, h_in, params[i][0])
        backwards.append([gW, gb])
        g = g_in
    return tuple(backwards[::-1])
