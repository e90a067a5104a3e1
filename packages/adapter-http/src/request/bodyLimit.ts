/** The most bytes a command's JSON body may hold (HTTP "Requests and access": 1 MiB). */
export const bodyLimit = 1_048_576
