"""The Perceptron convergence proof's claims as Hypothesis properties.

Each test is named after the statement it checks; ``docs/properties.md`` lists them.
"""
