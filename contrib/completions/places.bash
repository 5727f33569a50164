#!/bin/bash

__places_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__places_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__places_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__places_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_places() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    init|login|logout|whoami|status|place|favorite|itinerary|activity|events|route|peers|share|join|members|unshare|help)
        # Offer subcommand argument completions
        "_places_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'init login logout whoami status place favorite itinerary activity events route peers share join members unshare help' -- "${cur}"))
        ;;
    esac
}

_places_init() {
    repeating_flags=()
    non_repeating_flags=(--json --no-passphrase --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --name --username --bio --passphrase-file)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--name')
        return
        ;;
    '--username')
        return
        ;;
    '--bio')
        return
        ;;
    '--passphrase-file')
        return
        ;;
    esac
}

_places_login() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --passphrase-file)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--passphrase-file')
        return
        ;;
    esac
}

_places_logout() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_whoami() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_status() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_place() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|list|show|edit|remove)
        # Offer subcommand argument completions
        "_places_place_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add list show edit remove' -- "${cur}"))
        ;;
    esac
}

_places_place_add() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--category)
    non_repeating_options=(--data-dir --socket --lat --lon --address --price --rating --notes --url)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--lat')
        return
        ;;
    '--lon')
        return
        ;;
    '--address')
        return
        ;;
    '--category')
        return
        ;;
    '--price')
        return
        ;;
    '--rating')
        return
        ;;
    '--notes')
        return
        ;;
    '--url')
        return
        ;;
    esac
}

_places_place_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_place_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_place_edit() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--category --clear)
    non_repeating_options=(--data-dir --socket --name --lat --lon --address --price --rating --notes --url)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--name')
        return
        ;;
    '--lat')
        return
        ;;
    '--lon')
        return
        ;;
    '--address')
        return
        ;;
    '--category')
        return
        ;;
    '--price')
        return
        ;;
    '--rating')
        return
        ;;
    '--notes')
        return
        ;;
    '--url')
        return
        ;;
    '--clear')
        __places_add_completions -W 'address'$'\n''categories'$'\n''price'$'\n''rating'$'\n''notes'$'\n''url'
        return
        ;;
    esac
}

_places_place_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_favorite() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|list|move|remove)
        # Offer subcommand argument completions
        "_places_favorite_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add list move remove' -- "${cur}"))
        ;;
    esac
}

_places_favorite_add() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --position)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--position')
        return
        ;;
    esac
}

_places_favorite_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_favorite_move() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --to)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--to')
        return
        ;;
    esac
}

_places_favorite_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_itinerary() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    create|list|show|edit|delete|add-place|remove-place|move-place|share|members)
        # Offer subcommand argument completions
        "_places_itinerary_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'create list show edit delete add-place remove-place move-place share members' -- "${cur}"))
        ;;
    esac
}

_places_itinerary_create() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--place)
    non_repeating_options=(--data-dir --socket --start --end --transport --lodging-name --lodging-address --check-in --check-out --travel-price --lodging-price --currency --notes)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--start')
        return
        ;;
    '--end')
        return
        ;;
    '--transport')
        return
        ;;
    '--lodging-name')
        return
        ;;
    '--lodging-address')
        return
        ;;
    '--check-in')
        return
        ;;
    '--check-out')
        return
        ;;
    '--travel-price')
        return
        ;;
    '--lodging-price')
        return
        ;;
    '--currency')
        return
        ;;
    '--notes')
        return
        ;;
    '--place')
        return
        ;;
    esac
}

_places_itinerary_list() {
    repeating_flags=()
    non_repeating_flags=(--json --mine --shared --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_itinerary_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_itinerary_edit() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--clear)
    non_repeating_options=(--data-dir --socket --name --start --end --transport --lodging-name --lodging-address --check-in --check-out --travel-price --lodging-price --currency --notes)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--name')
        return
        ;;
    '--start')
        return
        ;;
    '--end')
        return
        ;;
    '--transport')
        return
        ;;
    '--lodging-name')
        return
        ;;
    '--lodging-address')
        return
        ;;
    '--check-in')
        return
        ;;
    '--check-out')
        return
        ;;
    '--travel-price')
        return
        ;;
    '--lodging-price')
        return
        ;;
    '--currency')
        return
        ;;
    '--notes')
        return
        ;;
    '--clear')
        __places_add_completions -W 'start'$'\n''end'$'\n''transport'$'\n''lodging'$'\n''lodging-name'$'\n''lodging-address'$'\n''check-in'$'\n''check-out'$'\n''travel-price'$'\n''lodging-price'$'\n''notes'
        return
        ;;
    esac
}

_places_itinerary_delete() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_itinerary_add-place() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --position)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--position')
        return
        ;;
    esac
}

_places_itinerary_remove-place() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_itinerary_move-place() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --to)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--to')
        return
        ;;
    esac
}

_places_itinerary_share() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --with --role)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--with')
        return
        ;;
    '--role')
        return
        ;;
    esac
}

_places_itinerary_members() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_activity() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_events() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_route() {
    repeating_flags=()
    non_repeating_flags=(--json --round-trip --apply --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --mode --by --start --end --format --output)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--mode')
        __places_add_completions -W 'walking'$'\n''cycling'$'\n''driving'
        return
        ;;
    '--by')
        __places_add_completions -W 'duration'$'\n''distance'
        return
        ;;
    '--start')
        return
        ;;
    '--end')
        return
        ;;
    '--format')
        __places_add_completions -W 'json'$'\n''geojson'$'\n''gpx'$'\n''gmaps'$'\n''svg'
        return
        ;;
    '--output')
        return
        ;;
    esac
}

_places_peers() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|add)
        # Offer subcommand argument completions
        "_places_peers_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list add' -- "${cur}"))
        ;;
    esac
}

_places_peers_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_peers_add() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_share() {
    repeating_flags=()
    non_repeating_flags=(--json --qr --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --role --expires --uses --for --with)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--role')
        return
        ;;
    '--expires')
        return
        ;;
    '--uses')
        return
        ;;
    '--for')
        return
        ;;
    '--with')
        return
        ;;
    esac
}

_places_join() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --wait)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--wait')
        return
        ;;
    esac
}

_places_members() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_unshare() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --member --link)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--member')
        return
        ;;
    '--link')
        return
        ;;
    esac
}

_places_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options -1
}

complete -o filenames -F _places places
