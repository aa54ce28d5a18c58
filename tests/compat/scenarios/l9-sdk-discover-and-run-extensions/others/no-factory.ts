// A module that exports no factory.
export const notAFactory = 42;
